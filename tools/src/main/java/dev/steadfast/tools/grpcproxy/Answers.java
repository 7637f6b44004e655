package dev.steadfast.tools.grpcproxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Duration;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.ProtocolMessageEnum;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.JsonFormat;
import com.google.protobuf.util.Timestamps;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.openjobspec.ojs.v1.CronEntry;
import org.openjobspec.ojs.v1.HealthResponse;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.JobError;
import org.openjobspec.ojs.v1.ManifestResponse;
import org.openjobspec.ojs.v1.NackResponse;
import org.openjobspec.ojs.v1.QueueStatistics;
import org.openjobspec.ojs.v1.QueueStatsResponse;
import org.openjobspec.ojs.v1.RetryPolicy;
import org.openjobspec.ojs.v1.UniqueConflictAction;
import org.openjobspec.ojs.v1.UniquePolicy;
import org.openjobspec.ojs.v1.Workflow;
import org.openjobspec.ojs.v1.WorkflowStepStatus;

/**
 * The binding's response messages as the HTTP binding's JSON, field by field and nothing more: a field the message
 * does not have is not in the answer (no second request fills it in), a proto3 string or timestamp left unset is
 * left out, enum values are their wire names ({@code JOB_STATE_AVAILABLE} is {@code "available"}), a
 * {@code Duration} of a job is milliseconds ({@code timeout_ms}), a retry interval ISO 8601. {@code Value} and
 * {@code Struct} go through protobuf's {@link JsonFormat}.
 */
final class Answers {

    private final ObjectMapper json;

    Answers(ObjectMapper json) {
        this.json = json;
    }

    ObjectNode object() {
        return json.createObjectNode();
    }

    /** One field: {@code {"name": value}}. */
    ObjectNode wrap(String name, JsonNode value) {
        ObjectNode o = object();
        o.set(name, value);
        return o;
    }

    ArrayNode jobs(List<Job> jobs) {
        ArrayNode a = json.createArrayNode();
        jobs.forEach(j -> a.add(job(j)));
        return a;
    }

    ObjectNode job(Job j) {
        ObjectNode o = object();
        text(o, "specversion", j.getSpecversion());
        text(o, "id", j.getId());
        text(o, "type", j.getType());
        text(o, "queue", j.getQueue());
        ArrayNode args = o.putArray("args");
        j.getArgsList().forEach(v -> args.add(tree(v)));
        if (j.hasMeta()) {
            o.set("meta", tree(j.getMeta()));
        }
        o.put("state", wire(j.getState(), "JOB_STATE_"));
        o.put("priority", j.getPriority());
        o.put("attempt", j.getAttempt());
        o.put("max_attempts", j.getMaxAttempts());
        if (j.hasRetryPolicy()) {
            o.set("retry", retry(j.getRetryPolicy()));
        }
        if (j.hasUniquePolicy()) {
            o.set("unique", unique(j.getUniquePolicy()));
        }
        if (j.hasResult()) {
            o.set("result", tree(j.getResult()));
        }
        if (j.getErrorsCount() > 0) {
            ArrayNode errors = o.putArray("errors");
            j.getErrorsList().forEach(e -> errors.add(error(e)));
        }
        time(o, "created_at", j.hasCreatedAt(), j.getCreatedAt());
        time(o, "enqueued_at", j.hasEnqueuedAt(), j.getEnqueuedAt());
        time(o, "scheduled_at", j.hasScheduledAt(), j.getScheduledAt());
        time(o, "started_at", j.hasStartedAt(), j.getStartedAt());
        time(o, "completed_at", j.hasCompletedAt(), j.getCompletedAt());
        time(o, "expires_at", j.hasExpiresAt(), j.getExpiresAt());
        millis(o, "timeout_ms", j.hasTimeout(), j.getTimeout());
        millis(o, "visibility_timeout_ms", j.hasVisibilityTimeout(), j.getVisibilityTimeout());
        ArrayNode tags = o.putArray("tags");
        j.getTagsList().forEach(tags::add);
        text(o, "trace_id", j.getTraceId());
        text(o, "workflow_id", j.getWorkflowId());
        return o;
    }

    private ObjectNode retry(RetryPolicy r) {
        ObjectNode o = object();
        o.put("max_attempts", r.getMaxAttempts());
        if (r.hasInitialInterval()) {
            o.put("initial_interval", iso(r.getInitialInterval()));
        }
        o.put("backoff_coefficient", r.getBackoffCoefficient());
        if (r.hasMaxInterval()) {
            o.put("max_interval", iso(r.getMaxInterval()));
        }
        o.put("jitter", r.getJitter());
        ArrayNode a = o.putArray("non_retryable_errors");
        r.getNonRetryableErrorsList().forEach(a::add);
        text(o, "on_exhaustion", r.getOnExhaustion());
        return o;
    }

    private ObjectNode unique(UniquePolicy u) {
        ObjectNode o = object();
        ArrayNode keys = o.putArray("keys");
        u.getKeyList().forEach(keys::add);
        if (u.hasPeriod()) {
            o.put("period", iso(u.getPeriod()));
        }
        if (u.getOnConflict() != UniqueConflictAction.UNIQUE_CONFLICT_ACTION_UNSPECIFIED) {
            o.put("on_conflict", wire(u.getOnConflict(), "UNIQUE_CONFLICT_ACTION_"));
        }
        ArrayNode states = o.putArray("states");
        u.getStatesList().forEach(st -> states.add(wire(st, "JOB_STATE_")));
        ArrayNode argsKeys = o.putArray("args_keys");
        u.getArgsKeysList().forEach(argsKeys::add);
        ArrayNode metaKeys = o.putArray("meta_keys");
        u.getMetaKeysList().forEach(metaKeys::add);
        return o;
    }

    private ObjectNode error(JobError e) {
        ObjectNode o = object();
        text(o, "code", e.getCode());
        o.put("message", e.getMessage());
        o.put("retryable", e.getRetryable());
        o.put("attempt", e.getAttempt());
        time(o, "occurred_at", e.hasOccurredAt(), e.getOccurredAt());
        text(o, "backtrace", e.getBacktrace());
        if (e.hasDetails()) {
            o.set("details", tree(e.getDetails()));
        }
        return o;
    }

    /** NackResponse: the job's new state and, when it will be retried, when. */
    ObjectNode nack(NackResponse n) {
        ObjectNode o = object();
        o.put("state", wire(n.getState(), "JOB_STATE_"));
        time(o, "next_attempt_at", n.hasNextAttemptAt(), n.getNextAttemptAt());
        return o;
    }

    ObjectNode workflow(Workflow w) {
        ObjectNode o = object();
        text(o, "id", w.getId());
        text(o, "name", w.getName());
        o.put("state", wire(w.getState(), "WORKFLOW_STATE_"));
        ArrayNode steps = o.putArray("steps");
        for (WorkflowStepStatus s : w.getStepsList()) {
            ObjectNode step = steps.addObject();
            text(step, "id", s.getId());
            text(step, "type", s.getType());
            step.put("state", wire(s.getState(), "WORKFLOW_STEP_STATE_"));
            text(step, "job_id", s.getJobId());
            ArrayNode deps = step.putArray("depends_on");
            s.getDependsOnList().forEach(deps::add);
        }
        time(o, "created_at", w.hasCreatedAt(), w.getCreatedAt());
        time(o, "completed_at", w.hasCompletedAt(), w.getCompletedAt());
        return o;
    }

    /** QueueStatsResponse as GET /queues/{name}/stats answers: {@code {"queue": {"name", counts...}}}. */
    ObjectNode queueStats(QueueStatsResponse r) {
        QueueStatistics s = r.getStats();
        ObjectNode q = object().put("name", r.getQueue()).put("paused", s.getPaused())
                .put("available", s.getAvailable()).put("active", s.getActive()).put("scheduled", s.getScheduled())
                .put("retryable", s.getRetryable()).put("dead", s.getDead())
                .put("completed_last_hour", s.getCompletedLastHour()).put("failed_last_hour", s.getFailedLastHour())
                .put("avg_duration_ms", s.getAvgDurationMs()).put("avg_wait_ms", s.getAvgWaitMs())
                .put("throughput_per_second", s.getThroughputPerSecond());
        return wrap("queue", q);
    }

    ObjectNode cron(CronEntry c) {
        ObjectNode o = object();
        text(o, "name", c.getName());
        text(o, "expression", c.getCron());
        text(o, "timezone", c.getTimezone());
        ObjectNode template = o.putObject("job_template");
        text(template, "type", c.getType());
        ArrayNode args = template.putArray("args");
        c.getArgsList().forEach(v -> args.add(tree(v)));
        time(o, "next_run_at", c.hasNextRunAt(), c.getNextRunAt());
        time(o, "last_run_at", c.hasLastRunAt(), c.getLastRunAt());
        return o;
    }

    ObjectNode manifest(ManifestResponse m) {
        ObjectNode o = object();
        text(o, "ojs_version", m.getOjsVersion());
        o.set("implementation", tree(m.getImplementation()));
        o.put("conformance_level", m.getConformanceLevel());
        ArrayNode protocols = o.putArray("protocols");
        m.getProtocolsList().forEach(protocols::add);
        text(o, "backend", m.getBackend());
        ArrayNode extensions = o.putArray("extensions");
        m.getExtensionsList().forEach(extensions::add);
        o.put("schema_validation", m.getSchemaValidation());
        return o;
    }

    /** HealthResponse: {@code HEALTH_STATUS_OK} is {@code "ok"}, with the timestamp and the details' fields. */
    ObjectNode health(HealthResponse h) {
        ObjectNode o = object();
        o.put("status", wire(h.getStatus(), "HEALTH_STATUS_"));
        time(o, "timestamp", h.hasTimestamp(), h.getTimestamp());
        if (h.hasDetails()) {
            o.set("details", tree(h.getDetails()));
        }
        return o;
    }

    /** A message, or a Value or Struct, as JSON through JsonFormat (snake_case names, unset fields left out). */
    JsonNode tree(MessageOrBuilder m) {
        try {
            return json.readTree(JsonFormat.printer().preservingProtoFieldNames().print(m));
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("JsonFormat cannot print " + m.getClass().getSimpleName(), e);
        } catch (IOException e) {
            throw new IllegalStateException("JsonFormat printed text that is not JSON", e);
        }
    }

    static String wire(ProtocolMessageEnum e, String prefix) {
        String name = ((Enum<?>) e).name();
        return name.startsWith(prefix) ? name.substring(prefix.length()).toLowerCase(Locale.ROOT) : name;
    }

    private static void text(ObjectNode o, String name, String value) {
        if (!value.isEmpty()) {
            o.put(name, value);
        }
    }

    private static void time(ObjectNode o, String name, boolean has, Timestamp t) {
        if (has) {
            o.put(name, Timestamps.toString(t));
        }
    }

    private static void millis(ObjectNode o, String name, boolean has, Duration d) {
        if (has) {
            o.put(name, Durations.toMillis(d));
        }
    }

    private static String iso(Duration d) {
        return java.time.Duration.ofSeconds(d.getSeconds(), d.getNanos()).toString();
    }
}
