package dev.steadfast.domain.unique;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.unique.UniquePolicy.Dimension;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A unique policy as a request wrote it, field by field and already typed, before its shapes are reconciled into
 * one {@link UniquePolicy}. Three documents describe the object and the official SDKs follow two of them:
 *
 * <ul>
 *   <li>ojs-unique-jobs.md 2: {@code keys} (dimensions), {@code args_keys}, {@code meta_keys}, {@code period},
 *       {@code states}, {@code on_conflict};</li>
 *   <li>ojs-json-format.md 3.5 (and both SDKs): {@code key} as an <b>array of args field names</b>, the fields of
 *       the job's arguments that make the key; it reads as {@code keys: ["type", "args"]} plus
 *       {@code args_keys: key} (with any further dimensions {@code keys} names). OJS args are an array, so a name
 *       addresses a field of the first argument, which must be an object: the keyword-arguments convention both
 *       SDKs follow ({@code enqueue("t", {"order": 1})} sends {@code args: [{"order": 1}]});</li>
 *   <li>{@code key} as a <b>string</b>: a key of the caller's own that replaces every dimension but the type;</li>
 *   <li>{@code period_ms} (the Java SDK): the period in milliseconds.</li>
 * </ul>
 *
 * A combination that could mean two things is refused with 400 naming the field rather than guessed: a string
 * {@code key} beside {@code keys}/{@code args_keys}/{@code meta_keys}, an array {@code key} beside
 * {@code args_keys}, an empty array {@code key}, and {@code period} beside {@code period_ms}.
 *
 * @param field     where the policy was in the request ({@code options.unique} or {@code unique})
 * @param customKey {@code key} when it was a string, else null
 * @param keyFields {@code key} when it was an array, else null
 * @param keys      the dimensions {@code keys} named, or null when absent
 */
public record UniqueRequest(String field, String customKey, List<String> keyFields, Set<Dimension> keys,
                            List<String> argsKeys, List<String> metaKeys, Duration period, Long periodMs,
                            Set<JobState> states, OnConflict onConflict) {

    /** The policy this request states, or a 400 naming the field that makes it ambiguous or invalid. */
    public UniquePolicy policy() {
        Set<Dimension> dims = keys == null ? EnumSet.noneOf(Dimension.class) : EnumSet.copyOf(keysOrType());
        List<String> args = argsKeys;
        String argsField = null;
        if (customKey != null && (keys != null || argsKeys != null || metaKeys != null)) {
            throw OjsException.invalidField(field + ".key", "'" + field + ".key' is a string, a key of your own that"
                    + " replaces 'keys', 'args_keys' and 'meta_keys'; send one or the other, or send 'key' as an array"
                    + " of args field names.", "string key alone, or array of args field names",
                    "string key with " + (keys != null ? "keys" : argsKeys != null ? "args_keys" : "meta_keys"));
        }
        if (keyFields != null) {
            if (keyFields.isEmpty()) {
                throw OjsException.invalidField(field + ".key", "'" + field + ".key' must name at least one field of"
                        + " the job's first argument (leave 'key' out to deduplicate by type).",
                        "non-empty array of strings", "empty array");
            }
            if (argsKeys != null) {
                throw OjsException.invalidField(field + ".args_keys", "'" + field + ".key' (an array of args fields)"
                        + " and '" + field + ".args_keys' say the same thing; send one of them.",
                        "key or args_keys", "both");
            }
            dims.add(Dimension.ARGS);
            args = keyFields;
            argsField = field + ".key";
        }
        return new UniquePolicy(dims, args, metaKeys, customKey, effectivePeriod(), states, onConflict, field,
                argsField);
    }

    private Set<Dimension> keysOrType() {
        return keys.isEmpty() ? EnumSet.of(Dimension.TYPE) : keys;
    }

    private Duration effectivePeriod() {
        if (periodMs == null) {
            return period;
        }
        if (period != null) {
            throw OjsException.invalidField(field + ".period_ms", "'" + field + ".period' and '" + field
                    + ".period_ms' both give the period; send one of them.", "period or period_ms", "both");
        }
        if (periodMs < 1) {
            throw OjsException.invalidField(field + ".period_ms", "'" + field
                    + ".period_ms' must be a positive number of milliseconds.", "1 or more", String.valueOf(periodMs));
        }
        return Duration.ofMillis(periodMs);
    }
}
