package dev.steadfast.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.TenantId;
import dev.steadfast.domain.TraceContext;
import dev.steadfast.domain.retry.Iso8601Duration;
import dev.steadfast.domain.retry.PolicyViolation;
import dev.steadfast.domain.schema.SchemaVersion;
import dev.steadfast.domain.schema.VersionedType;
import dev.steadfast.http.Body;
import dev.steadfast.http.Json;
import dev.steadfast.http.RequestContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns a PUSH body into an {@link EnqueueCommand}. Options are read from {@code options} (the HTTP binding's
 * shape) and, failing that, from the envelope's own top-level attributes (the core spec's shape).
 * {@code options.metadata} is merged into {@code meta}; {@code options.delay_until} is an alias of
 * {@code scheduled_at}. System-managed attributes a client sends are ignored (ojs-core.md 5.3); any other
 * attribute the server does not know is kept and returned with the job (ojs-core.md 5.5). A job's {@code version}
 * (ojs-job-versioning.md 5) is such an attribute, checked to be a version ({@code SchemaVersion}); a type written
 * {@code name@version} is the type {@code name} with that version, unless the job has a {@code version} field.
 *
 * <p>A job created by a request that carries a valid W3C {@code traceparent} header gets that trace context in its
 * {@code meta} ({@code traceparent}, and {@code tracestate} when valid), unless its own meta already names a
 * {@code traceparent}: what the client put in meta wins, untouched (ojs-observability.md 5.1; {@link RequestContext}).
 * A cron template ({@link #template}) takes nothing from the request that registered it.
 */
public final class EnqueueParser {

    private static final Set<String> ENVELOPE = Set.of("specversion", "id", "type", "queue", "args", "meta",
            "options", "priority", "timeout", "timeout_ms", "scheduled_at", "expires_at", "retry", "tags",
            "visibility_timeout_ms", "pending");
    private static final Set<String> SYSTEM = Set.of("state", "attempt", "max_attempts", "created_at",
            "enqueued_at", "started_at", "completed_at", "cancelled_at", "discarded_at", "error", "errors",
            "result", "next_retry_at", "retry_delay_ms", "worker_id", "lease_expires_at", "dead_letter", "run",
            "snoozes");

    private EnqueueParser() {
    }

    /** {@code now}: the instant relative times ({@code "+PT5S"}, {@code delay}) count from. */
    public static EnqueueCommand parse(ObjectMapper m, Body b, Instant now) {
        return parse(m, b, now, RequestContext.trace(), RequestContext.tenantHeader());
    }

    /** A cron job template: like {@link #parse}, without the registering request's trace context. */
    public static EnqueueCommand template(ObjectMapper m, Body b, Instant now) {
        return parse(m, b, now, null, null);
    }

    /**
     * As {@link #parse(ObjectMapper, Body, Instant)}, with the request's trace context and tenant given rather than
     * read from the HTTP request (the gRPC binding reads them from its metadata).
     */
    public static EnqueueCommand parse(ObjectMapper m, Body b, Instant now, TraceContext trace,
                                       String tenantHeader) {
        String id = b.string("id", false);
        VersionedType typed = VersionedType.split(b.string("type", true));
        String type = typed.type();
        JsonNode version = b.raw("version");
        if (version != null) { // ojs-job-versioning.md 5.2: kept as written, answered with the job
            SchemaVersion.of(b.field("version"), version.isIntegralNumber() ? (Object) version.longValue()
                    : version.isTextual() ? version.textValue() : version);
        }
        JsonNode args = b.array("args", true);
        Body meta = b.object("meta");
        Body o = b.object("options");
        Options opt = new Options(o, b, now);
        ObjectNode metaNode = meta == null ? m.createObjectNode() : meta.node().deepCopy();
        Body metadata = o == null ? null : o.object("metadata");
        if (metadata != null) {
            metadata.node().fields().forEachRemaining(e -> metaNode.putIfAbsent(e.getKey(), e.getValue()));
        }
        String tenantId = tenant(metaNode, tenantHeader);
        if (trace != null && !metaNode.has(RequestContext.TRACEPARENT)) {
            metaNode.put(RequestContext.TRACEPARENT, trace.traceparent());
            if (trace.tracestate() != null) {
                metaNode.put(RequestContext.TRACESTATE, trace.tracestate());
            } else {
                metaNode.remove(RequestContext.TRACESTATE); // a tracestate belongs with its own traceparent
            }
        }
        Long priority = opt.integer("priority");
        Long timeoutMs = opt.integer("timeout_ms");
        Long timeoutSeconds = b.integer("timeout"); // the core envelope's timeout is in seconds
        if (timeoutMs == null && timeoutSeconds != null) {
            if (timeoutSeconds < 1 || timeoutSeconds > Integer.MAX_VALUE) {
                throw OjsException.invalidField("timeout", "'timeout' must be a positive whole number of seconds.",
                        "1 to " + Integer.MAX_VALUE, String.valueOf(timeoutSeconds));
            }
            timeoutMs = timeoutSeconds * 1000L;
        }
        Instant scheduledAt = opt.timestamp("scheduled_at");
        if (scheduledAt == null) {
            scheduledAt = opt.timestamp("delay_until");
        }
        if (scheduledAt == null) {
            scheduledAt = opt.delayed(o);
        }
        Body rateLimit = opt.object("rate_limit");
        Body retry = opt.object("retry");
        if (retry == null) {
            retry = opt.object("retry_policy");
        }
        return new EnqueueCommand(id, type, opt.string("queue"), Json.write(m, args), Json.write(m, metaNode),
                extensions(m, b, o, version == null ? typed.version() : null),
                priority == null ? null : (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, priority)),
                opt.strings("tags"), timeoutMs, opt.integer("visibility_timeout_ms"), scheduledAt,
                opt.timestamp("expires_at"), Boolean.TRUE.equals(opt.bool("pending")),
                retry == null ? null : map(m, retry.node()), AdvancedOptions.unique(opt.object("unique")),
                AdvancedOptions.rateLimit(rateLimit), AdvancedOptions.queueWide(rateLimit) ? null
                        : AdvancedOptions.keyed(rateLimit), tenantId);
    }

    /**
     * meta.tenant_id (ojs-multi-tenancy 5.1), filled in from the X-OJS-Tenant header when the body names none;
     * both checked by {@link TenantId#resolve} (400 on a malformed or conflicting value); answers it (null: none).
     */
    private static String tenant(ObjectNode metaNode, String header) {
        JsonNode t = metaNode.get("tenant_id");
        if (t == null && header == null) {
            return null;
        }
        if (t != null && !t.isTextual()) {
            throw OjsException.invalidField("meta.tenant_id", "meta.tenant_id must be a string.", "string",
                    t.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        String tenant = TenantId.resolve(t == null ? null : t.textValue(), header);
        metaNode.put("tenant_id", tenant);
        return tenant;
    }

    /**
     * {@code options.delay} (ISO 8601 duration) or {@code options.delay_ms} of a job's {@code options} object
     * ({@code delay_ms} wins), or null when neither is given. A workflow applies it to a waiting member from the
     * moment the member is enqueued (WorkflowResource).
     */
    public static Duration delay(Body o) {
        if (o == null) {
            return null;
        }
        Long ms = o.integer("delay_ms");
        if (ms != null) {
            if (ms < 0) {
                throw OjsException.invalidField(o.field("delay_ms"), "'options.delay_ms' must not be negative.",
                        "integer >= 0", ms.toString());
            }
            return Duration.ofMillis(ms);
        }
        String iso = o.string("delay", false);
        if (iso == null) {
            return null;
        }
        try {
            return Iso8601Duration.parse(o.field("delay"), iso);
        } catch (PolicyViolation e) {
            throw OjsException.invalidField(o.field("delay"), e.getMessage(), "ISO 8601 duration", iso);
        }
    }

    /**
     * An enqueue option read from {@code options} (the HTTP binding's shape) and, when absent there, from the
     * envelope's top level (the core spec's shape), so both shapes and any mix of them work.
     */
    private record Options(Body options, Body envelope, Instant now) {

        private Body from(String name) {
            return options != null && options.has(name) ? options : envelope;
        }

        String string(String name) {
            return from(name).string(name, false);
        }

        Long integer(String name) {
            return from(name).integer(name);
        }

        Boolean bool(String name) {
            return from(name).bool(name);
        }

        Instant timestamp(String name) {
            return from(name).timestamp(name, now);
        }

        /** {@code options.delay} (ISO 8601 duration) or {@code options.delay_ms}: scheduled that long from now. */
        Instant delayed(Body o) {
            Duration d = delay(o);
            return d == null ? null : now.plus(d);
        }

        Body object(String name) {
            return from(name).object(name);
        }

        List<String> strings(String name) {
            return from(name).strings(name, false);
        }
    }

    /**
     * Attributes outside the envelope, kept verbatim; also {@code options.unique} and {@code options.rate_limit}, so
     * INFO shows the policy, and the version written in the type ({@code typeVersion}, null when none or when the
     * job has a version field).
     */
    private static String extensions(ObjectMapper m, Body b, Body o, SchemaVersion typeVersion) {
        ObjectNode ext = m.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = b.node().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!ENVELOPE.contains(e.getKey()) && !SYSTEM.contains(e.getKey())) {
                ext.set(e.getKey(), e.getValue());
            }
        }
        if (o != null && o.raw("unique") != null) {
            ext.set("unique", o.raw("unique"));
        }
        if (o != null && o.raw("rate_limit") != null) {
            ext.set("rate_limit", o.raw("rate_limit"));
        }
        if (typeVersion != null) {
            ext.set("version", m.valueToTree(typeVersion.wire()));
        }
        return ext.isEmpty() ? null : Json.write(m, ext);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(ObjectMapper m, JsonNode node) {
        return m.convertValue(node, Map.class);
    }

}
