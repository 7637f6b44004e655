package dev.steadfast.work;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.checkpoints.CheckpointService;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.TenantId;
import dev.steadfast.domain.WorkerId;
import dev.steadfast.domain.WorkerState;
import dev.steadfast.domain.retry.Iso8601Duration;
import dev.steadfast.domain.retry.PolicyViolation;
import dev.steadfast.http.Body;
import dev.steadfast.http.HttpFrame;
import dev.steadfast.http.Json;
import dev.steadfast.http.Params;
import dev.steadfast.http.RequestContext;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.jobs.JobView;
import dev.steadfast.jobs.JobsConfig;
import dev.steadfast.model.Completion;
import dev.steadfast.model.JobRow;
import dev.steadfast.model.WorkerReport;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * FETCH, ACK and FAIL (ojs-http-binding.md section 10). FETCH, ACK and batch ACK answer the JSON as bytes with a
 * declared type ({@link #ANSWER}) rather than a {@link Response}, so the writer is chosen once at start-up instead
 * of looked up on every request (about 3% of such a request's CPU, docs/performance/README.md), and a large answer
 * is written whole ({@link Json#bytes}); refusals are exceptions and reach the error mapper as before.
 */
@Path("/ojs/v1/workers")
public class WorkerResource {

    /** What FETCH, ACK and batch ACK produce (HttpFrame drops the client's Accept header, so none is refused). */
    static final String ANSWER = HttpFrame.OJS_MEDIA_TYPE;

    private final WorkerService workers;
    private final FailureService failures;
    private final HeartbeatService heartbeats;
    private final FetchConfig fetchConfig;
    private final JobsConfig jobsConfig;
    private final WorkersConfig workersConfig;
    private final ObjectMapper json;
    private final Draining draining;
    private final Clock clock;
    private final CheckpointService checkpoints;

    public WorkerResource(WorkerService workers, FailureService failures, HeartbeatService heartbeats,
                          FetchConfig fetchConfig, JobsConfig jobsConfig, WorkersConfig workersConfig, ObjectMapper json,
                          Draining draining, Clock clock, CheckpointService checkpoints) {
        this.checkpoints = checkpoints;
        this.draining = draining;
        this.clock = clock;
        this.workers = workers;
        this.failures = failures;
        this.heartbeats = heartbeats;
        this.fetchConfig = fetchConfig;
        this.jobsConfig = jobsConfig;
        this.workersConfig = workersConfig;
        this.json = json;
    }

    @POST
    @Path("/fetch")
    @Produces(ANSWER)
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<byte[]> fetch(String body) {
        String tenant = RequestContext.tenantHeader();
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> claim(b, tenant))
                .flatMap(jobs -> checkpoints.resumePoints(jobs).map(points -> answer(jobs, points)));
    }

    /**
     * FETCH's answer; a job that has a checkpoint carries it (ojs-durable-execution.md 6.1). The flag comes with the
     * claimed row, so a FETCH of jobs without one reads nothing more.
     */
    private byte[] answer(List<JobRow> jobs, Map<UUID, String> checkpointsById) {
        List<JobView> views = new ArrayList<>(jobs.size());
        for (JobRow j : jobs) {
            JobView v = JobView.claimed(json, j);
            String checkpoint = checkpointsById.get(j.id());
            views.add(checkpoint == null ? v : v.withCheckpoint(checkpoint));
        }
        return Json.bytes(json, FetchAnswer.of(views));
    }

    /**
     * FETCH as {@code b} asks ({@code queues}, {@code count}, {@code worker_id}, {@code visibility_timeout_ms},
     * {@code wait_ms}), by a worker naming {@code tenantHeader} (X-OJS-Tenant, or the gRPC x-ojs-tenant; null:
     * none): the one reading of a FETCH, shared with the gRPC binding (grpc.OjsGrpcService).
     */
    public Uni<List<JobRow>> claim(Body b, String tenantHeader) {
        List<String> queues = b.strings("queues", true);
        if (queues.isEmpty()) {
            throw OjsException.invalidField("queues", "'queues' must name at least one queue.");
        }
        queues.forEach(JobRules::checkQueue);
        Long count = b.integer("count");
        int max = fetchConfig.maxCount();
        if (count != null && (count < 1 || count > max)) {
            throw OjsException.invalidField("count", "'count' must be an integer from 1 to " + max + ".",
                    "integer in [1, " + max + "]", count.toString());
        }
        String worker = workerId(b);
        Long vis = b.integer("visibility_timeout_ms");
        if (vis != null) {
            JobRules.checkPositiveMillis("visibility_timeout_ms", vis, jobsConfig.maxTimeout().toMillis());
        }
        return workers.fetch(queues, count == null ? 1 : count.intValue(), worker, vis, waitOf(b),
                TenantId.header(tenantHeader));
    }

    /**
     * Long-poll (extension "long_poll"): {@code wait_ms} holds an empty FETCH until a job arrives or the wait is
     * over; more than steadfast.fetch.max-wait is cut to it.
     */
    private Duration waitOf(Body b) {
        Long ms = b.integer("wait_ms");
        if (ms == null || ms == 0) {
            return null;
        }
        if (ms < 0) {
            throw OjsException.invalidField("wait_ms", "'wait_ms' must be 0 or more milliseconds.", "integer >= 0",
                    ms.toString());
        }
        Duration max = fetchConfig.maxWait();
        return ms >= max.toMillis() ? max : Duration.ofMillis(ms);
    }

    /**
     * Batch ACK/FAIL (extension "batch_ack"): {@code {"worker_id", "acks": [{"job_id", "result"} | {"job_id",
     * "error": {...}}]}} answers each job on its own, in request order: {@code {"results": [{"job_id", "ok":
     * true, "state", ...} | {"job_id", "ok": false, "error": {code, message, details}}]}}. Items with an
     * {@code error} are FAILs. Every item is validated before any is applied; a refused item (not active, lease
     * lost) does not affect the others.
     */
    @POST
    @Path("/ack/batch")
    @Produces(ANSWER)
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<byte[]> ackBatch(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            String worker = optionalWorkerId(b);
            JsonNode arr = b.array("acks", true);
            List<Body> items = new ArrayList<>(arr.size());
            for (int i = 0; i < arr.size(); i++) {
                items.add(Body.element(json, arr.get(i), "acks[" + i + "]"));
            }
            int max = jobsConfig.maxBatch();
            if (items.isEmpty() || items.size() > max) {
                throw OjsException.invalidField("acks", "'acks' must hold 1 to " + max + " items.",
                        "array of 1.." + max, Integer.toString(items.size()));
            }
            List<BatchItem> valid = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                try {
                    valid.add(batchItem(items.get(i), worker));
                } catch (OjsException e) {
                    throw e.atIndex(i);
                }
            }
            List<Uni<BatchAckAnswer.Result>> answers = new ArrayList<>(valid.size());
            Set<UUID> seen = new HashSet<>();
            for (BatchItem item : valid) {
                // a job answered twice in one request: the first answer is the one that counts
                answers.add(seen.add(item.jobId()) ? item.apply().get()
                        : Uni.createFrom().item(BatchAckAnswer.Result.refused(item.jobId(), new OjsException(
                                ErrorCode.CONFLICT, "The job appears earlier in this batch; only"
                                + " its first answer is applied.", Map.of("job_id", item.jobId().toString())))));
            }
            return Uni.join().all(answers).andFailFast();
        }).map(results -> Json.bytes(json, new BatchAckAnswer(results)));
    }

    /** One validated item of a batch ACK: its job, and the ACK or FAIL that answers it. */
    private record BatchItem(UUID jobId, Supplier<Uni<BatchAckAnswer.Result>> apply) {
    }

    /** Validates one item ({@code worker} from the request unless the item names its own) without applying it. */
    private BatchItem batchItem(Body item, String worker) {
        UUID id = jobIdField(item);
        String w = requireWorker(item.has("worker_id") ? optionalWorkerId(item) : worker);
        if (item.has("error")) {
            FailCommand f = failCommand(id, w, item.object("error"));
            return new BatchItem(id, () -> failures.record(f).map(o -> o instanceof FailureService.FailOutcome.Failed ok
                    ? BatchAckAnswer.Result.failed(JobOutcome.of(ok.job()))
                    : BatchAckAnswer.Result.refused(id, ((FailureService.FailOutcome.Refused) o).error())));
        }
        Completion a = new Completion(id, resultOf(item), w);
        return new BatchItem(id, () -> workers.complete(a).map(o -> o.error() != null
                ? BatchAckAnswer.Result.refused(id, o.error())
                : BatchAckAnswer.Result.acked(AckAnswer.of(id, o.completedAt()))));
    }

    private String resultOf(Body b) {
        JsonNode result = b.raw("result");
        return result == null ? null : Json.write(json, result);
    }

    /** The FAIL a nack body's {@code error} object describes. */
    private FailCommand failCommand(UUID id, String worker, Body err) {
        if (err == null) {
            throw OjsException.invalidField("error", "The 'error' field is required: an object with at least "
                    + "a 'message'.", "object", "missing");
        }
        String message = err.string("message", true);
        Body details = err.object("details");
        @SuppressWarnings("unchecked")
        Map<String, Object> d = details == null ? null : json.convertValue(details.node(), Map.class);
        FailureReport report = FailureReport.of(err.string("code", false), err.string("type", false), message,
                err.bool("retryable"), d);
        return new FailCommand(id, worker, report, d, backtrace(err));
    }

    @POST
    @Path("/ack")
    @Produces(ANSWER)
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<byte[]> ack(String body) {
        // the binding's answer, and the same object under "job", as the job-path alias answers (ojs-serverless reads
        // $.job.state from this route)
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> acknowledge(jobIdField(b), b))
                .map(a -> Json.bytes(json, new JobAckResource.OnJob<>(a, a)));
    }

    /**
     * ACK of job {@code id} as {@code b} asks ({@code result}, {@code worker_id}): the one reading of an ACK, which
     * the job-path alias ({@link JobAckResource}) shares so that it cannot drift from this route.
     */
    Uni<AckAnswer> acknowledge(UUID id, Body b) {
        return ack(id, b).map(at -> AckAnswer.of(id, at));
    }

    /** ACK of job {@code id} as {@code b} asks: when it completed. Shared with the gRPC binding. */
    public Uni<Instant> ack(UUID id, Body b) {
        return workers.ack(id, resultOf(b), workerId(b));
    }

    @POST
    @Path("/nack")
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> nack(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> negativeAck(jobIdField(b), b))
                .map(o -> Responses.ok(json, o));
    }

    /**
     * FAIL (or, with {@code requeue}, a snooze) of job {@code id} as {@code b} asks: the one reading of a NACK,
     * shared with the job-path alias ({@link JobAckResource}).
     */
    Uni<JobOutcome> negativeAck(UUID id, Body b) {
        return nack(id, b).map(JobOutcome::of);
    }

    /** FAIL (or requeue) of job {@code id} as {@code b} asks: the job as it left it. Shared with the gRPC binding. */
    public Uni<JobRow> nack(UUID id, Body b) {
        if (Boolean.TRUE.equals(b.bool("requeue"))) {
            // OJS's requeue: hand the job back without counting a failed attempt (a snooze, optionally delayed)
            return workers.snooze(id, workerId(b), snoozeDelay(b), b.timestamp("until"));
        }
        return failures.fail(failCommand(id, workerId(b), b.object("error")));
    }

    /**
     * SNOOZE (Steadfast extension "snooze"): {@code {"job_id", "worker_id", "delay_ms" | "delay" (ISO 8601) |
     * "until" (RFC 3339)}} hands the job back to run later without counting a failed attempt.
     */
    @POST
    @Path("/snooze")
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> snooze(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b ->
                workers.snooze(jobIdField(b), workerId(b), snoozeDelay(b), b.timestamp("until")))
                .map(row -> Responses.ok(json, JobOutcome.of(row)));
    }

    /** The snooze delay from {@code delay_ms} or {@code delay} (ISO 8601); zero when neither is given. */
    private Duration snoozeDelay(Body b) {
        Long ms = b.integer("delay_ms");
        String iso = b.string("delay", false);
        long max = jobsConfig.maxTimeout().toMillis();
        if (ms != null) {
            if (ms < 0 || ms > max) {
                throw OjsException.invalidField("delay_ms", "'delay_ms' must be from 0 to " + max + ".",
                        "integer in [0, " + max + "]", ms.toString());
            }
            return Duration.ofMillis(ms);
        }
        if (iso != null) {
            try {
                return Iso8601Duration.parse("delay", iso);
            } catch (PolicyViolation v) {
                throw OjsException.invalidField("delay", v.getMessage(), "ISO 8601 duration", iso);
            }
        }
        return Duration.ZERO;
    }

    /** Backtrace as an array of frames (ojs-core.md 8.1), or one string split into lines. */
    private static List<String> backtrace(Body err) {
        JsonNode bt = err.raw("backtrace");
        if (bt == null) {
            bt = err.raw("stack_trace");
        }
        if (bt == null) {
            return null;
        }
        if (bt.isTextual()) {
            return List.of(bt.textValue().split("\\R"));
        }
        return err.strings(err.has("backtrace") ? "backtrace" : "stack_trace", false);
    }

    /**
     * BEAT. The job list may come as {@code active_jobs} (the HTTP binding: an array of ids),
     * {@code active_job_ids} (the worker protocol) or a single {@code job_id}; without any, every lease the
     * worker holds is extended.
     */
    @POST
    @Path("/heartbeat")
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> heartbeat(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(this::beat).map(beat ->
                Responses.ok(json, new HeartbeatAnswer(beat.directive(),
                        "running".equals(beat.directive()) ? "" : beat.directive(), true,
                        beat.extended().stream().map(UUID::toString).toList(), Timestamps.format(beat.serverTime()))));
    }

    /**
     * BEAT as {@code b} asks, with the directive the worker gets ("quiet" while this server drains, when
     * steadfast.workers.quiet-on-shutdown is on): the one reading of a BEAT, shared with the gRPC binding.
     */
    public Uni<HeartbeatService.Beat> beat(Body b) {
        String worker = workerId(b);
        if (worker == null) {
            throw OjsException.invalidField("worker_id", "The 'worker_id' field is required.", "string", "missing");
        }
        List<UUID> ids = heartbeatJobs(b);
        Long vis = b.integer("visibility_timeout_ms");
        if (vis != null) {
            JobRules.checkPositiveMillis("visibility_timeout_ms", vis, jobsConfig.maxTimeout().toMillis());
        }
        List<String> queues = b.strings("queues", false);
        String stateText = b.string("state", false);
        WorkerState reported = stateText == null ? null : WorkerState.fromWire(stateText).orElseThrow(() ->
                OjsException.invalidField("state", "'state' must be running, quiet, drain or terminate.",
                        "running | quiet | drain | terminate", stateText));
        return heartbeats.beat(worker, ids, vis, b.string("hostname", false), queues)
                .call(() -> draining.heartbeat(worker, reported, clock.instant()))
                .map(beat -> draining.serverDraining() && workersConfig.quietOnShutdown()
                        && "running".equals(beat.directive())
                        ? new HeartbeatService.Beat("quiet", beat.extended(), beat.serverTime()) : beat);
    }

    /** The heartbeat under the name the graceful-shutdown extension uses ({@code POST /ojs/v1/workers/beat}). */
    @POST
    @Path("/beat")
    @RolesAllowed({Roles.WORKER, Roles.ADMIN})
    public Uni<Response> beat(String body) {
        return heartbeat(body);
    }

    /**
     * A worker as it last reported itself (ojs-graceful-shutdown.md): {@code state} (running, quiet, drain,
     * terminate), the operator's {@code directive}, its last heartbeat; 404 for a worker never heard from.
     */
    @GET
    @Path("/{id}/health")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> health(@PathParam("id") String id) {
        return draining.reportOf(id).map(o -> {
            WorkerReport r = o.orElseThrow(() -> OjsException.notFound("worker", id));
            return Responses.ok(json, new WorkerHealth(id, r.state().wire(),
                    r.state().acceptsWork() && !draining.serverDraining(), r.directive(), r.hostname(),
                    r.activeJobs(), Timestamps.format(r.stateAt()), Timestamps.format(r.lastSeen())));
        });
    }

    private static List<UUID> heartbeatJobs(Body b) {
        List<String> raw = null;
        if (b.raw("active_jobs") != null && b.raw("active_jobs").isArray()) {
            raw = b.strings("active_jobs", false);
        } else if (b.raw("active_job_ids") != null) {
            raw = b.strings("active_job_ids", false);
        } else if (b.raw("job_id") != null) {
            raw = List.of(b.string("job_id", false));
        }
        if (raw == null) {
            return null;
        }
        List<UUID> ids = new ArrayList<>(raw.size());
        for (String s : raw) {
            try {
                ids.add(UUID.fromString(s));
            } catch (IllegalArgumentException e) {
                throw OjsException.invalidField("active_jobs", "'active_jobs' must list job ids (UUIDs).", "uuid", s);
            }
        }
        return ids;
    }

    /** The body's {@code job_id}, checked: a 400 naming it when missing or not a UUID. */
    public static UUID jobIdField(Body b) {
        String id = b.string("job_id", true);
        return Params.uuid(id).orElseThrow(() ->
                OjsException.invalidField("job_id", "'job_id' must be a job id (a UUID).", "uuid", id));
    }

    /**
     * The request's {@code worker_id}; required when steadfast.workers.require-worker-id is on, so that every
     * answer is checked against the lease holder (see docs/concepts/retries-and-dead-letters.md).
     */
    String workerId(Body b) {
        return requireWorker(optionalWorkerId(b));
    }

    /** {@code w}, or a 400 when it is missing and this server requires it. */
    private String requireWorker(String w) {
        if (w == null && workersConfig.requireWorkerId()) {
            throw OjsException.invalidField("worker_id", "This server requires 'worker_id' on every worker request"
                    + " (steadfast.workers.require-worker-id), so that only the lease holder can answer for a job.",
                    "string", "missing");
        }
        return w;
    }

    /**
     * The {@code worker_id} of {@code b}, or null when absent; 400 naming it when it is not a {@link WorkerId} (empty,
     * too long, or holding a control character). Every route that reads a worker id reads it here.
     */
    static String optionalWorkerId(Body b) {
        String w = b.string(WorkerId.FIELD, false);
        return w == null ? null : WorkerId.check(WorkerId.FIELD, w);
    }
}
