package dev.steadfast.tools.grpcproxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Duration;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.Timestamps;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjobspec.ojs.v1.AckRequest;
import org.openjobspec.ojs.v1.BatchJobEntry;
import org.openjobspec.ojs.v1.CreateWorkflowRequest;
import org.openjobspec.ojs.v1.EnqueueBatchRequest;
import org.openjobspec.ojs.v1.EnqueueOptions;
import org.openjobspec.ojs.v1.EnqueueRequest;
import org.openjobspec.ojs.v1.FetchRequest;
import org.openjobspec.ojs.v1.HeartbeatRequest;
import org.openjobspec.ojs.v1.JobError;
import org.openjobspec.ojs.v1.JobState;
import org.openjobspec.ojs.v1.NackRequest;
import org.openjobspec.ojs.v1.RegisterCronRequest;
import org.openjobspec.ojs.v1.RetryPolicy;
import org.openjobspec.ojs.v1.UniqueConflictAction;
import org.openjobspec.ojs.v1.UniquePolicy;
import org.openjobspec.ojs.v1.WorkerState;
import org.openjobspec.ojs.v1.WorkflowStep;

/**
 * The HTTP binding's request bodies as the binding's request messages, field by field (ojs-grpc-binding.md 12.2,
 * the inverse of what the server's gRPC layer does with them): {@code scheduled_at}/{@code delay_until} is
 * {@code delay_until} (a relative {@code "+PT5S"} counted from now, as a client computes it), {@code *_ms} durations and ISO 8601 retry intervals are {@code Duration}s, an
 * {@code expires_at} is a {@code ttl} from now, wire names ("available", "reject") are enum values. A field the
 * message has no place for (a client-chosen {@code id}, {@code x_*} extensions, {@code rate_limit}...) is not sent,
 * as a gRPC client could not send it; a value of the wrong JSON type is {@link NotExpressible}.
 */
final class Requests {

    private final RequestFields f;

    Requests(RequestFields fields) {
        this.f = fields;
    }

    EnqueueRequest enqueue(JsonNode b) {
        EnqueueRequest.Builder r = EnqueueRequest.newBuilder().setType(f.text(b, "type")).addAllArgs(f.values(b, "args"));
        EnqueueOptions o = options(b);
        if (o != null) {
            r.setOptions(o);
        }
        return r.build();
    }

    EnqueueBatchRequest batch(JsonNode b) {
        JsonNode jobs = b.get("jobs");
        if (jobs == null || !jobs.isArray()) {
            throw new NotExpressible("'jobs' is not an array; EnqueueBatchRequest.jobs is a repeated BatchJobEntry");
        }
        EnqueueBatchRequest.Builder r = EnqueueBatchRequest.newBuilder();
        for (JsonNode j : jobs) {
            if (!j.isObject()) {
                throw new NotExpressible("a 'jobs' entry is not an object; a BatchJobEntry is a message");
            }
            BatchJobEntry.Builder e = BatchJobEntry.newBuilder().setType(f.text(j, "type")).addAllArgs(f.values(j, "args"));
            EnqueueOptions o = options(j);
            if (o != null) {
                e.setOptions(o);
            }
            r.addJobs(e);
        }
        return r.build();
    }

    /** {@code options} (and the body's {@code meta}, which EnqueueOptions carries) as EnqueueOptions; null if neither. */
    private EnqueueOptions options(JsonNode job) {
        JsonNode o = job.get("options");
        Struct meta = f.struct(job, "meta");
        if ((o == null || o.isNull()) && meta == null) {
            return null;
        }
        EnqueueOptions.Builder b = EnqueueOptions.newBuilder();
        if (meta != null) {
            b.setMeta(meta);
        }
        if (o == null || o.isNull()) {
            return b.build();
        }
        if (!o.isObject()) {
            throw new NotExpressible("'options' is not an object; EnqueueOptions is a message");
        }
        b.setQueue(f.text(o, "queue")).setPriority(f.int32(o, "priority")).addAllTags(f.strings(o, "tags"));
        String scheduled = RequestFields.given(o, "delay_until") ? "delay_until" : "scheduled_at";
        Duration in = f.relative(o, scheduled);
        Timestamp at = in != null ? Timestamps.add(Timestamps.now(), in) : f.timestamp(o, scheduled);
        if (at != null) {
            b.setDelayUntil(at);
        }
        if (f.millis(o, "timeout_ms") != null) {
            b.setTimeout(f.millis(o, "timeout_ms"));
        }
        if (f.millis(o, "visibility_timeout_ms") != null) {
            b.setVisibilityTimeout(f.millis(o, "visibility_timeout_ms"));
        }
        // the binding has a time to live, counted from the PUSH: "+PT2S" is one exactly, an instant is one from now
        // (to the millisecond; an expiry already past is a ttl of 0)
        Duration ttl = f.relative(o, "expires_at");
        Timestamp expires = ttl == null ? f.timestamp(o, "expires_at") : null;
        if (expires != null) {
            ttl = Durations.fromMillis(Math.max(0, Timestamps.toMillis(expires) - System.currentTimeMillis()));
        }
        if (ttl != null) {
            b.setTtl(ttl);
        }
        if (o.has("retry") && !o.get("retry").isNull()) {
            b.setRetry(retry(o.get("retry")));
        }
        if (o.has("unique") && !o.get("unique").isNull()) {
            b.setUnique(unique(o.get("unique")));
        }
        return b.build();
    }

    private RetryPolicy retry(JsonNode r) {
        if (!r.isObject()) {
            throw new NotExpressible("'options.retry' is not an object; RetryPolicy is a message");
        }
        RetryPolicy.Builder p = RetryPolicy.newBuilder().setMaxAttempts(f.int32(r, "max_attempts"))
                .setBackoffCoefficient(f.number(r, "backoff_coefficient")).setJitter(f.bool(r, "jitter"))
                .addAllNonRetryableErrors(f.strings(r, "non_retryable_errors"))
                .setOnExhaustion(f.text(r, "on_exhaustion"));
        if (f.iso(r, "initial_interval") != null) {
            p.setInitialInterval(f.iso(r, "initial_interval"));
        }
        if (f.iso(r, "max_interval") != null) {
            p.setMaxInterval(f.iso(r, "max_interval"));
        }
        return p.build();
    }

    private UniquePolicy unique(JsonNode u) {
        if (!u.isObject()) {
            throw new NotExpressible("'options.unique' is not an object; UniquePolicy is a message");
        }
        UniquePolicy.Builder p = UniquePolicy.newBuilder().addAllKey(f.strings(u, "keys"))
                .addAllArgsKeys(f.strings(u, "args_keys")).addAllMetaKeys(f.strings(u, "meta_keys"));
        if (f.iso(u, "period") != null) {
            p.setPeriod(f.iso(u, "period"));
        } else if (f.millis(u, "period_ms") != null) {
            p.setPeriod(f.millis(u, "period_ms"));
        }
        String conflict = f.text(u, "on_conflict");
        if (!conflict.isEmpty()) {
            p.setOnConflict(enumValue(UniqueConflictAction.class, "UNIQUE_CONFLICT_ACTION_", conflict,
                    "options.unique.on_conflict"));
        }
        for (String s : f.strings(u, "states")) {
            p.addStates(state(s, "options.unique.states[]"));
        }
        return p.build();
    }

    static JobState state(String wire, String field) {
        return enumValue(JobState.class, "JOB_STATE_", wire, field);
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, String prefix, String wire, String field) {
        try {
            return Enum.valueOf(type, prefix + wire.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new NotExpressible("'" + field + "' (" + wire + ") names no value of " + type.getSimpleName());
        }
    }

    FetchRequest fetch(JsonNode b) {
        return FetchRequest.newBuilder().addAllQueues(f.strings(b, "queues")).setCount(f.int32(b, "count"))
                .setWorkerId(f.text(b, "worker_id")).build();
    }

    AckRequest ack(JsonNode b) {
        AckRequest.Builder r = AckRequest.newBuilder().setJobId(f.text(b, "job_id"));
        Struct result = f.struct(b, "result");
        if (result != null) {
            r.setResult(result);
        }
        return r.build();
    }

    NackRequest nack(JsonNode b) {
        NackRequest.Builder r = NackRequest.newBuilder().setJobId(f.text(b, "job_id"));
        JsonNode e = b.get("error");
        if (e != null && !e.isNull()) {
            if (!e.isObject()) {
                throw new NotExpressible("'error' is not an object; JobError is a message");
            }
            JobError.Builder err = JobError.newBuilder().setCode(f.text(e, "code")).setMessage(f.text(e, "message"))
                    .setRetryable(f.bool(e, "retryable"));
            Struct details = f.struct(e, "details");
            if (details != null) {
                err.setDetails(details);
            }
            JsonNode bt = e.get("backtrace");
            if (bt != null && bt.isArray()) {
                err.setBacktrace(String.join("\n", f.strings(e, "backtrace")));
            } else {
                err.setBacktrace(f.text(e, "backtrace"));
            }
            r.setError(err);
        }
        return r.build();
    }

    /**
     * BEAT: a worker with one active job is the per-job form ({@code id} the job, {@code worker_id} the worker);
     * without active jobs, the worker form ({@code id} the worker). Several jobs in one beat have no message.
     */
    HeartbeatRequest heartbeat(JsonNode b) {
        List<String> active = f.strings(b, "active_jobs");
        String worker = f.text(b, "worker_id");
        HeartbeatRequest.Builder r = HeartbeatRequest.newBuilder();
        if (active.size() > 1) {
            throw new NotExpressible("'active_jobs' names " + active.size() + " jobs; HeartbeatRequest.id names one");
        }
        if (active.size() == 1) {
            r.setId(active.get(0)).setWorkerId(worker);
        } else {
            r.setId(worker);
        }
        if (f.millis(b, "visibility_timeout_ms") != null) {
            r.setExtendBy(f.millis(b, "visibility_timeout_ms"));
        }
        String state = f.text(b, "state");
        if (!state.isEmpty()) {
            r.setCurrentState(enumValue(WorkerState.class, "WORKER_STATE_", state, "state"));
        }
        return r.build();
    }

    /** POST /ojs/v1/cron: {@code name}, {@code expression}, {@code timezone}, {@code job_template}. */
    RegisterCronRequest cron(JsonNode b) {
        RegisterCronRequest.Builder r = RegisterCronRequest.newBuilder().setName(f.text(b, "name"))
                .setCron(f.text(b, "expression")).setTimezone(f.text(b, "timezone"));
        JsonNode t = b.get("job_template");
        if (t != null && !t.isNull()) {
            if (!t.isObject()) {
                throw new NotExpressible("'job_template' is not an object");
            }
            r.setType(f.text(t, "type")).addAllArgs(f.values(t, "args"));
            EnqueueOptions o = options(t);
            if (o != null) {
                r.setOptions(o);
            }
        }
        return r.build();
    }

    /**
     * A chain ({@code steps}, each after the one before), a group ({@code jobs}, none waiting) or a batch
     * ({@code jobs}, and {@code callbacks} that wait for every job, under their own names) as the binding's steps
     * with {@code depends_on}, the shape the server reads back as the same three primitives.
     */
    CreateWorkflowRequest workflow(JsonNode b) {
        if (RequestFields.given(b, "options")) {
            throw new NotExpressible("'options' of a whole workflow: CreateWorkflowRequest has no field for them");
        }
        String type = f.text(b, "type");
        CreateWorkflowRequest.Builder r = CreateWorkflowRequest.newBuilder().setName(f.text(b, "name"));
        JsonNode list = b.get(type.equals("chain") ? "steps" : "jobs");
        if (!List.of("chain", "group", "batch").contains(type) || list == null || !list.isArray()) {
            throw new NotExpressible("a workflow of type '" + type + "' without its list of steps or jobs:"
                    + " CreateWorkflowRequest carries chains, groups and batches as steps with depends_on");
        }
        for (int i = 0; i < list.size(); i++) {
            WorkflowStep.Builder s = step(list.get(i), "step-" + i);
            if (type.equals("chain") && i > 0) {
                s.addDependsOn("step-" + (i - 1));
            }
            r.addSteps(s);
        }
        JsonNode callbacks = b.get("callbacks");
        if (callbacks != null && callbacks.isObject()) {
            for (Map.Entry<String, JsonNode> c : callbacks.properties()) {
                WorkflowStep.Builder s = step(c.getValue(), c.getKey());
                for (int i = 0; i < list.size(); i++) {
                    s.addDependsOn("step-" + i);
                }
                r.addSteps(s);
            }
        }
        return r.build();
    }

    private WorkflowStep.Builder step(JsonNode job, String id) {
        if (!job.isObject() || job.has("steps") || job.has("jobs")) {
            throw new NotExpressible("step '" + id + "' is not a job (a nested workflow?): a WorkflowStep is one job");
        }
        WorkflowStep.Builder s = WorkflowStep.newBuilder().setId(id).setType(f.text(job, "type"))
                .addAllArgs(f.values(job, "args"));
        EnqueueOptions o = options(job);
        if (o != null) {
            s.setOptions(o);
        }
        return s;
    }
}
