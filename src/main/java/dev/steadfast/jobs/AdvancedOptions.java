package dev.steadfast.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.domain.limits.RateLimitPolicy.Window;
import dev.steadfast.domain.retry.Iso8601Duration;
import dev.steadfast.domain.retry.PolicyViolation;
import dev.steadfast.domain.unique.OnConflict;
import dev.steadfast.domain.unique.UniquePolicy;
import dev.steadfast.domain.unique.UniquePolicy.Dimension;
import dev.steadfast.domain.unique.UniqueRequest;
import dev.steadfast.http.Body;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the Level 4 enqueue options: {@code unique} (ojs-unique-jobs.md 2 and 13, plus {@code key} as an array of
 * args fields (ojs-json-format.md 3.5) or a string, and {@code period_ms}; {@link UniqueRequest} reconciles the
 * shapes) and {@code rate_limit}: with {@code max_per_second} the binding's {@code RateLimitPolicy}, which
 * configures the job's queue; otherwise the rate limiting extension's per-key policy (ojs-rate-limiting.md 6).
 * Unknown fields and values are refused with 400 naming them, so a typo never silently switches deduplication or a
 * limit off (ojs-unique-jobs 2.2).
 */
final class AdvancedOptions {

    private static final Set<String> UNIQUE_FIELDS = Set.of("keys", "args_keys", "meta_keys", "period", "period_ms",
            "states", "on_conflict", "key");

    private AdvancedOptions() {
    }

    static UniquePolicy unique(Body u) {
        if (u == null) {
            return null;
        }
        onlyKnown(u, UNIQUE_FIELDS);
        JsonNode key = u.raw("key");
        if (key != null && !key.isTextual() && !key.isArray()) {
            throw OjsException.invalidField(u.field("key"), "'" + u.field("key") + "' must be an array of args field"
                    + " names (ojs-json-format 3.5) or a string (a key of your own), not " + Body.kind(key) + ".",
                    "array of strings or string", Body.kind(key));
        }
        return new UniqueRequest(u.path(), key != null && key.isTextual() ? key.textValue() : null,
                key != null && key.isArray() ? u.strings("key", false) : null, dimensions(u),
                u.strings("args_keys", false), u.strings("meta_keys", false), period(u), u.integer("period_ms"),
                states(u), onConflict(u)).policy();
    }

    /** {@code keys}: the dimensions, or null when absent. */
    private static Set<Dimension> dimensions(Body u) {
        List<String> keys = u.strings("keys", false);
        if (keys == null) {
            return null;
        }
        Set<Dimension> dims = EnumSet.noneOf(Dimension.class);
        for (String k : keys) {
            dims.add(enumValue(u.field("keys"), k, Dimension.values(), Dimension::wire));
        }
        return dims;
    }

    private static Set<JobState> states(Body u) {
        List<String> st = u.strings("states", false);
        if (st == null) {
            return null;
        }
        Set<JobState> states = EnumSet.noneOf(JobState.class);
        for (String s : st) {
            states.add(enumValue(u.field("states"), s, JobState.values(), JobState::wire));
        }
        return states;
    }

    private static OnConflict onConflict(Body u) {
        String oc = u.string("on_conflict", false);
        return oc == null ? null : OnConflict.fromWire(oc).orElseThrow(() -> OjsException.invalidField(
                u.field("on_conflict"), "'" + u.field("on_conflict") + "' must be one of reject, replace,"
                        + " replace_except_schedule, ignore (or use_existing).",
                "reject|replace|replace_except_schedule|ignore", oc));
    }

    /** {@code period}, an ISO 8601 duration, or null. */
    private static Duration period(Body u) {
        if (!u.has("period")) {
            return null;
        }
        String text = u.string("period", false);
        try {
            return Iso8601Duration.parse(u.field("period"), text);
        } catch (PolicyViolation e) {
            throw OjsException.invalidField(u.field("period"), "'" + u.field("period")
                    + "' must be an ISO 8601 duration such as PT1H.", "ISO 8601 duration", text);
        }
    }

    private static final Set<String> KEY_FIELDS = Set.of("key", "concurrency", "rate", "period", "throttle",
            "on_limit");

    /** Whether {@code rate_limit} is the binding's queue-wide {@code max_per_second} rather than a keyed policy. */
    static boolean queueWide(Body r) {
        return r != null && r.has("max_per_second");
    }

    /**
     * The per-key policy (ojs-rate-limiting.md 6.1): {@code key}, {@code concurrency}, {@code rate} and
     * {@code throttle} as {@code {"limit": n, "period": "PT1M"}}, {@code on_limit}. Also read: {@code "rate": n} with
     * a sibling {@code "period"} (an ISO 8601 duration or {@code second}, {@code minute}, {@code hour}, {@code day}),
     * the shape the conformance suite sends. {@code on_limit} other than {@code wait} is refused (422 unsupported):
     * held jobs always stay available here.
     */
    static RateLimitPolicy keyed(Body r) {
        if (r == null) {
            return null;
        }
        onlyKnown(r, KEY_FIELDS);
        String key = r.string("key", true);
        Long conc = r.integer("concurrency");
        if (conc != null && (conc < 0 || conc > Integer.MAX_VALUE)) {
            throw OjsException.invalidField(r.field("concurrency"), "'" + r.field("concurrency")
                    + "' must be a whole number of 0 or more.", "0 or more", String.valueOf(conc));
        }
        Window rate;
        JsonNode raw = r.raw("rate");
        if (raw != null && raw.isIntegralNumber()) {
            if (!r.has("period")) {
                throw OjsException.invalidField(r.field("period"), "'" + r.field("rate") + "' as a number needs '"
                        + r.field("period") + "' beside it.", "ISO 8601 duration or second|minute|hour|day", "missing");
            }
            rate = Window.of(r.field("rate"), r.integer("rate"), period(r, "period"));
        } else {
            if (r.has("period")) {
                throw OjsException.invalidField(r.field("period"), "'" + r.field("period") + "' belongs inside '"
                        + r.field("rate") + "' (or beside a numeric rate).", "rate.period", "period");
            }
            rate = window(r.object("rate"));
        }
        Window throttle = window(r.object("throttle"));
        String onLimit = r.string("on_limit", false);
        if (onLimit != null && !onLimit.equals("wait")) {
            if (!onLimit.equals("reschedule") && !onLimit.equals("drop")) {
                throw OjsException.invalidField(r.field("on_limit"), "'" + r.field("on_limit")
                        + "' must be one of wait, reschedule, drop.", "wait|reschedule|drop", onLimit);
            }
            throw new OjsException(ErrorCode.UNSUPPORTED, "'" + r.field("on_limit") + "': "
                    + onLimit + " is not supported; this server holds a limited job available until its key allows it"
                    + " (on_limit wait, the default).", Map.of("field", r.field("on_limit"),
                    "supported", List.of("wait")));
        }
        return new RateLimitPolicy(key, conc == null ? null : conc.intValue(), rate, throttle);
    }

    private static Window window(Body w) {
        if (w == null) {
            return null;
        }
        onlyKnown(w, Set.of("limit", "period"));
        Long limit = w.integer("limit");
        if (limit == null) {
            throw OjsException.invalidField(w.field("limit"), "'" + w.field("limit") + "' is required.",
                    "0 to " + QueueLimits.MAX_RATE, "missing");
        }
        if (!w.has("period")) {
            throw OjsException.invalidField(w.field("period"), "'" + w.field("period") + "' is required.",
                    "ISO 8601 duration", "missing");
        }
        String field = w.field("limit");
        return Window.of(field.substring(0, field.length() - ".limit".length()), limit, period(w, "period"));
    }

    /** An ISO 8601 duration, or one of the words second, minute, hour, day. */
    private static Duration period(Body b, String name) {
        String text = b.string(name, true);
        switch (text) {
            case "second":
                return Duration.ofSeconds(1);
            case "minute":
                return Duration.ofMinutes(1);
            case "hour":
                return Duration.ofHours(1);
            case "day":
                return Duration.ofDays(1);
            default:
                try {
                    return Iso8601Duration.parse(b.field(name), text);
                } catch (PolicyViolation e) {
                    throw OjsException.invalidField(b.field(name), "'" + b.field(name) + "' must be an ISO 8601"
                            + " duration such as PT1M (or second, minute, hour, day).",
                            "ISO 8601 duration or second|minute|hour|day", text);
                }
        }
    }

    /** {@code rate_limit: {"max_per_second": n}}: the job's queue starts at most n jobs in any one second. */
    static QueueLimits rateLimit(Body r) {
        if (r == null || !queueWide(r)) {
            return null;
        }
        onlyKnown(r, Set.of("max_per_second"));
        Long n = r.integer("max_per_second");
        if (n == null || n < 1 || n > QueueLimits.MAX_RATE) {
            throw OjsException.invalidField(r.field("max_per_second"), "'" + r.field("max_per_second")
                    + "' must be a whole number from 1 to " + QueueLimits.MAX_RATE + ".", "1 to " + QueueLimits.MAX_RATE,
                    n == null ? "missing" : String.valueOf(n));
        }
        return QueueLimits.perSecond(n.intValue());
    }

    private static void onlyKnown(Body b, Set<String> known) {
        for (Iterator<String> it = b.node().fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                throw OjsException.invalidField(b.field(f), "'" + b.field(f) + "' is not a field this server knows; "
                        + "expected one of " + String.join(", ", known.stream().sorted().toList()) + ".",
                        String.join("|", known.stream().sorted().toList()), f);
            }
        }
    }

    private static <E> E enumValue(String field, String text, E[] values, Function<E, String> wire) {
        for (E e : values) {
            if (wire.apply(e).equals(text)) {
                return e;
            }
        }
        throw OjsException.invalidField(field, "'" + field + "' holds '" + text + "', which is not one of "
                + String.join(", ", Arrays.stream(values).map(wire).toList()) + ".",
                String.join("|", Arrays.stream(values).map(wire).toList()), text);
    }
}
