package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import dev.steadfast.domain.TraceContext;
import dev.steadfast.jobs.JobView;
import dev.steadfast.model.JobRow;
import java.util.List;
import java.util.Locale;
import org.openjobspec.ojs.v1.EnqueueOptions;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.JobError;
import org.openjobspec.ojs.v1.JobState;
import org.openjobspec.ojs.v1.RetryPolicy;
import org.openjobspec.ojs.v1.UniqueConflictAction;
import org.openjobspec.ojs.v1.UniquePolicy;

/**
 * The binding's messages and the HTTP binding's JSON, field by field as ojs-grpc-binding.md 12.2 maps them. Requests
 * become the JSON body the HTTP binding reads, so that one reader (jobs.Pushes, work.WorkerResource's FETCH, ACK,
 * NACK and BEAT) applies the same rules to both bindings; a job becomes a {@link Job} from the same envelope HTTP
 * answers ({@link JobView}). A proto3 scalar left at its zero value is "not given": a priority of 0, an empty queue
 * name and {@code retryable: false} are left out of the JSON, so the server's defaults apply as they do to an HTTP
 * request that leaves the field out.
 */
final class Messages {

    private final ObjectMapper json;

    Messages(ObjectMapper json) {
        this.json = json;
    }

    ObjectNode object() {
        return json.createObjectNode();
    }

    /** A PUSH body: {@code type}, {@code args} and {@code options} in the HTTP binding's shape. */
    ObjectNode push(String type, List<Value> args, EnqueueOptions o) {
        ObjectNode b = object();
        b.put("type", type);
        b.set("args", ProtoJson.array(args));
        if (o == null) {
            return b;
        }
        if (o.hasMeta()) {
            b.set("meta", ProtoJson.node(o.getMeta()));
        }
        ObjectNode opt = b.putObject("options");
        if (!o.getQueue().isEmpty()) {
            opt.put("queue", o.getQueue());
        }
        if (o.getPriority() != 0) {
            opt.put("priority", o.getPriority());
        }
        if (o.hasDelayUntil()) {
            opt.put("scheduled_at", ProtoJson.instant(o.getDelayUntil()).toString());
        }
        if (o.hasTimeout()) {
            opt.put("timeout_ms", ProtoJson.millis(o.getTimeout()));
        }
        if (o.hasVisibilityTimeout()) {
            opt.put("visibility_timeout_ms", ProtoJson.millis(o.getVisibilityTimeout()));
        }
        if (o.hasTtl()) {
            opt.put("expires_at", "+" + ProtoJson.iso(o.getTtl())); // relative to the PUSH, as the parser reads it
        }
        if (o.getTagsCount() > 0) {
            ArrayNode tags = opt.putArray("tags");
            o.getTagsList().forEach(tags::add);
        }
        if (o.hasRetry() || o.getMaxAttempts() != 0) {
            ObjectNode retry = o.hasRetry() ? retry(o.getRetry()) : object();
            if (o.getMaxAttempts() != 0) {
                retry.put("max_attempts", o.getMaxAttempts());
            }
            opt.set("retry", retry);
        }
        if (o.hasUnique()) {
            opt.set("unique", unique(o.getUnique()));
        }
        return b;
    }

    private ObjectNode retry(RetryPolicy r) {
        ObjectNode p = object();
        if (r.getMaxAttempts() != 0) {
            p.put("max_attempts", r.getMaxAttempts());
        }
        if (r.hasInitialInterval()) {
            p.put("initial_interval", ProtoJson.iso(r.getInitialInterval()));
        }
        if (r.getBackoffCoefficient() != 0) {
            p.put("backoff_coefficient", r.getBackoffCoefficient());
        }
        if (r.hasMaxInterval()) {
            p.put("max_interval", ProtoJson.iso(r.getMaxInterval()));
        }
        if (r.getJitter()) {
            p.put("jitter", true);
        }
        if (r.getNonRetryableErrorsCount() > 0) {
            ArrayNode a = p.putArray("non_retryable_errors");
            r.getNonRetryableErrorsList().forEach(a::add);
        }
        if (!r.getOnExhaustion().isEmpty()) {
            p.put("on_exhaustion", r.getOnExhaustion());
        }
        return p;
    }

    private ObjectNode unique(UniquePolicy u) {
        ObjectNode p = object();
        if (u.getKeyCount() > 0) {
            ArrayNode a = p.putArray("keys");
            u.getKeyList().forEach(a::add);
        }
        if (u.hasPeriod()) {
            p.put("period_ms", ProtoJson.millis(u.getPeriod()));
        }
        if (u.getOnConflictValue() != 0) {
            // UNIQUE_CONFLICT_ACTION_REJECT -> "reject"; an unknown number reaches the reader as it is and is refused
            p.put("on_conflict", u.getOnConflict() == UniqueConflictAction.UNRECOGNIZED
                    ? Integer.toString(u.getOnConflictValue())
                    : u.getOnConflict().name().substring("UNIQUE_CONFLICT_ACTION_".length()).toLowerCase(Locale.ROOT));
        }
        if (u.getStatesCount() > 0) {
            ArrayNode a = p.putArray("states");
            u.getStatesValueList().forEach(n -> a.add(stateWire(n)));
        }
        if (u.getArgsKeysCount() > 0) {
            ArrayNode a = p.putArray("args_keys");
            u.getArgsKeysList().forEach(a::add);
        }
        if (u.getMetaKeysCount() > 0) {
            ArrayNode a = p.putArray("meta_keys");
            u.getMetaKeysList().forEach(a::add);
        }
        return p;
    }

    /** A job state's wire name ("available") from its enum number; an unknown number as the number, to be refused. */
    static String stateWire(int number) {
        JobState s = JobState.forNumber(number);
        return s == null || s == JobState.JOB_STATE_UNSPECIFIED ? Integer.toString(number)
                : s.name().substring("JOB_STATE_".length()).toLowerCase(Locale.ROOT);
    }

    /** A job state from its wire name. */
    static JobState state(String wire) {
        try {
            return JobState.valueOf("JOB_STATE_" + wire.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return JobState.JOB_STATE_UNSPECIFIED;
        }
    }

    /** A NACK's {@code error} object: {@code code}, {@code message}, {@code retryable} when true, details, backtrace. */
    ObjectNode error(JobError e) {
        ObjectNode err = object();
        if (!e.getCode().isEmpty()) {
            err.put("code", e.getCode());
        }
        err.put("message", e.getMessage());
        if (e.getRetryable()) {
            err.put("retryable", true);
        }
        if (e.hasDetails()) {
            err.set("details", ProtoJson.node(e.getDetails()));
        }
        if (!e.getBacktrace().isEmpty()) {
            err.put("backtrace", e.getBacktrace());
        }
        return err;
    }

    /** The job as INFO answers it. */
    Job job(JobRow row) {
        return job(JobView.of(json, row));
    }

    /** The job as FETCH hands it to a worker. */
    Job claimed(JobRow row) {
        return job(JobView.claimed(json, row));
    }

    private Job job(JobView v) {
        Job.Builder j = Job.newBuilder().setSpecversion(v.specversion()).setId(v.id()).setType(v.type())
                .setQueue(v.queue()).setState(state(v.state())).setPriority(v.priority()).setAttempt(v.attempt())
                .setMaxAttempts(v.maxAttempts())
                .setVisibilityTimeout(ProtoJson.duration(v.visibilityTimeoutMs()));
        JsonNode args = ProtoJson.read(json, v.args());
        if (args != null) {
            args.forEach(a -> j.addArgs(ProtoJson.value(a)));
        }
        JsonNode meta = ProtoJson.read(json, v.meta());
        if (meta != null && meta.isObject()) {
            j.setMeta(ProtoJson.struct(meta));
            JsonNode workflow = meta.get("workflow_id");
            if (workflow != null && workflow.isTextual()) {
                j.setWorkflowId(workflow.textValue());
            }
            JsonNode parent = meta.get("traceparent");
            if (parent != null && parent.isTextual()) {
                TraceContext t = TraceContext.parse(parent.textValue(), null);
                if (t != null) {
                    j.setTraceId(t.traceId());
                }
            }
        }
        JsonNode retry = ProtoJson.read(json, v.retry());
        if (retry != null && retry.isObject()) {
            j.setRetryPolicy(retryPolicy(retry));
        }
        JsonNode unique = v.extensions() == null ? null : v.extensions().get("unique");
        if (unique != null && unique.isObject()) {
            j.setUniquePolicy(uniquePolicy(unique));
        }
        JsonNode result = ProtoJson.read(json, v.result());
        if (result != null && !result.isNull()) {
            // Struct holds objects only: any other result is carried as {"value": result}
            j.setResult(ProtoJson.struct(result.isObject() ? result : object().set("value", result)));
        }
        JsonNode errors = ProtoJson.read(json, v.errors());
        if (errors != null && errors.isArray()) {
            errors.forEach(e -> j.addErrors(jobError(e)));
        }
        if (v.tags() != null) {
            j.addAllTags(v.tags());
        }
        if (v.timeoutMs() != null) {
            j.setTimeout(ProtoJson.duration(v.timeoutMs()));
        }
        timestamps(v, j);
        return j.build();
    }

    private static void timestamps(JobView v, Job.Builder j) {
        if (v.createdAt() != null) {
            j.setCreatedAt(ProtoJson.timestamp(v.createdAt()));
        }
        if (v.enqueuedAt() != null) {
            j.setEnqueuedAt(ProtoJson.timestamp(v.enqueuedAt()));
        }
        if (v.scheduledAt() != null) {
            j.setScheduledAt(ProtoJson.timestamp(v.scheduledAt()));
        }
        if (v.startedAt() != null) {
            j.setStartedAt(ProtoJson.timestamp(v.startedAt()));
        }
        if (v.completedAt() != null) {
            j.setCompletedAt(ProtoJson.timestamp(v.completedAt()));
        }
        if (v.expiresAt() != null) {
            j.setExpiresAt(ProtoJson.timestamp(v.expiresAt()));
        }
    }

    /** The job's retry policy as HTTP answers it ({@code retry}, with its defaults filled in), field by field. */
    private static RetryPolicy retryPolicy(JsonNode r) {
        RetryPolicy.Builder b = RetryPolicy.newBuilder().setMaxAttempts(r.path("max_attempts").asInt(0))
                .setBackoffCoefficient(r.path("backoff_coefficient").asDouble(0))
                .setJitter(r.path("jitter").asBoolean(false)).setOnExhaustion(r.path("on_exhaustion").asText(""));
        com.google.protobuf.Duration initial = ProtoJson.duration(r.path("initial_interval").asText(null));
        if (initial != null) {
            b.setInitialInterval(initial);
        }
        com.google.protobuf.Duration max = ProtoJson.duration(r.path("max_interval").asText(null));
        if (max != null) {
            b.setMaxInterval(max);
        }
        r.path("non_retryable_errors").forEach(e -> b.addNonRetryableErrors(e.asText()));
        return b.build();
    }

    /**
     * The unique policy the job was enqueued with, as it was sent over either binding (kept whole among the job's
     * extension attributes, as HTTP answers it under {@code unique}), in the message's fields: {@code keys} as
     * {@code key}; {@code key} as an array of args field names as what it stands for (the {@code args} dimension and
     * those {@code args_keys}); {@code period} or {@code period_ms} as {@code period}. A key of the client's own (a
     * string {@code key}) has no field in the message and is left out.
     */
    private static UniquePolicy uniquePolicy(JsonNode u) {
        UniquePolicy.Builder b = UniquePolicy.newBuilder();
        u.path("keys").forEach(k -> b.addKey(k.asText()));
        if (u.path("key").isArray()) {
            if (!b.getKeyList().contains("args")) {
                b.addKey("args");
            }
            u.path("key").forEach(k -> b.addArgsKeys(k.asText()));
        }
        u.path("args_keys").forEach(k -> b.addArgsKeys(k.asText()));
        u.path("meta_keys").forEach(k -> b.addMetaKeys(k.asText()));
        com.google.protobuf.Duration period = u.path("period_ms").canConvertToLong()
                ? ProtoJson.duration(u.path("period_ms").asLong()) : ProtoJson.duration(u.path("period").asText(null));
        if (period != null) {
            b.setPeriod(period);
        }
        String conflict = "UNIQUE_CONFLICT_ACTION_" + u.path("on_conflict").asText("").toUpperCase(Locale.ROOT);
        for (UniqueConflictAction a : UniqueConflictAction.values()) { // PUSH let only known actions through
            if (a != UniqueConflictAction.UNRECOGNIZED && a.name().equals(conflict)) {
                b.setOnConflict(a);
            }
        }
        u.path("states").forEach(st -> b.addStates(state(st.asText())));
        return b.build();
    }

    private static JobError jobError(JsonNode e) {
        JobError.Builder b = JobError.newBuilder();
        if (e.path("code").isTextual()) {
            b.setCode(e.get("code").textValue());
        }
        if (e.path("message").isTextual()) {
            b.setMessage(e.get("message").textValue());
        }
        b.setRetryable(e.path("retryable").asBoolean(false)).setAttempt(e.path("attempt").asInt(0));
        Timestamp at = e.path("occurred_at").isTextual()
                ? ProtoJson.timestamp(e.get("occurred_at").textValue()) : null;
        if (at != null) {
            b.setOccurredAt(at);
        }
        if (e.path("details").isObject()) {
            b.setDetails(ProtoJson.struct(e.get("details")));
        }
        JsonNode bt = e.get("backtrace");
        if (bt != null && bt.isArray()) {
            StringBuilder s = new StringBuilder();
            bt.forEach(f -> s.append(s.length() == 0 ? "" : "\n").append(f.asText()));
            b.setBacktrace(s.toString());
        } else if (bt != null && bt.isTextual()) {
            b.setBacktrace(bt.textValue());
        }
        return b.build();
    }
}
