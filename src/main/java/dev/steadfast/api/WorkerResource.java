package dev.steadfast.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.config.SteadfastConfig;
import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.service.FailCommand;
import dev.steadfast.service.FailureService;
import dev.steadfast.service.Timestamps;
import dev.steadfast.service.WorkerService;
import dev.steadfast.store.JobRow;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** FETCH, ACK and FAIL (ojs-http-binding.md section 10). */
@Path("/ojs/v1/workers")
public class WorkerResource {

    private final WorkerService workers;
    private final FailureService failures;
    private final SteadfastConfig config;
    private final ObjectMapper json;

    public WorkerResource(WorkerService workers, FailureService failures, SteadfastConfig config, ObjectMapper json) {
        this.workers = workers;
        this.failures = failures;
        this.config = config;
        this.json = json;
    }

    @POST
    @Path("/fetch")
    public Uni<Response> fetch(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            List<String> queues = b.strings("queues", true);
            if (queues.isEmpty()) {
                throw OjsException.invalidField("queues", "'queues' must name at least one queue.");
            }
            queues.forEach(JobRules::checkQueue);
            Long count = b.integer("count");
            int max = config.fetch().maxCount();
            if (count != null && (count < 1 || count > max)) {
                throw OjsException.invalidField("count", "'count' must be an integer from 1 to " + max + ".",
                        "integer in [1, " + max + "]", count.toString());
            }
            String worker = workerId(b);
            Long vis = b.integer("visibility_timeout_ms");
            if (vis != null) {
                JobRules.checkPositiveMillis("visibility_timeout_ms", vis, config.jobs().maxTimeout().toMillis());
            }
            return workers.fetch(queues, count == null ? 1 : count.intValue(), worker, vis);
        }).map(jobs -> {
            List<Map<String, Object>> views = new ArrayList<>(jobs.size());
            for (JobRow j : jobs) {
                views.add(JobJson.view(json, j));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("jobs", views);
            if (!views.isEmpty()) {
                out.put("job", views.get(0));
            }
            return Responses.ok(json, out);
        });
    }

    @POST
    @Path("/ack")
    public Uni<Response> ack(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            UUID id = jobIdField(b);
            JsonNode result = b.raw("result");
            String resultJson = result == null ? null : EnqueueParser.write(json, result);
            return workers.ack(id, resultJson, workerId(b)).map(at -> {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("acknowledged", true);
                out.put("id", id.toString());
                out.put("job_id", id.toString());
                out.put("state", JobState.COMPLETED.wire());
                out.put("completed_at", Timestamps.format(at));
                return Responses.ok(json, out);
            });
        });
    }

    @POST
    @Path("/nack")
    public Uni<Response> nack(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            UUID id = jobIdField(b);
            boolean requeue = Boolean.TRUE.equals(b.bool("requeue"));
            Body err = b.object("error");
            if (err == null && !requeue) {
                throw OjsException.invalidField("error", "The 'error' field is required: an object with at least "
                        + "a 'message'.", "object", "missing");
            }
            FailCommand cmd = failCommand(id, workerId(b), err, requeue);
            return failures.fail(cmd).map(row -> Responses.ok(json, outcome(row)));
        });
    }

    private FailCommand failCommand(UUID id, String worker, Body err, boolean requeue) {
        if (err == null) {
            return new FailCommand(id, worker, FailureReport.of(null, null, "requeued by the worker", null, null),
                    null, null, true);
        }
        String message = err.string("message", !requeue);
        Body details = err.object("details");
        @SuppressWarnings("unchecked")
        Map<String, Object> d = details == null ? null : json.convertValue(details.node(), Map.class);
        FailureReport report = FailureReport.of(err.string("code", false), err.string("type", false), message,
                err.bool("retryable"), d);
        return new FailCommand(id, worker, report, d, backtrace(err), requeue);
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

    static Map<String, Object> outcome(JobRow row) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", row.id().toString());
        out.put("job_id", row.id().toString());
        out.put("state", row.state().wire());
        out.put("attempt", row.attempt());
        out.put("max_attempts", row.maxAttempts());
        if (row.state() == JobState.RETRYABLE) {
            out.put("next_attempt_at", Timestamps.format(row.runAt()));
            out.put("retry_delay_ms", row.retryDelayMs());
        } else if (row.state() == JobState.DISCARDED) {
            out.put("discarded_at", Timestamps.format(row.discardedAt()));
            out.put("completed_at", Timestamps.format(row.completedAt()));
            out.put("dead_letter", row.deadLetter());
        } else if (row.state() == JobState.AVAILABLE) {
            out.put("next_attempt_at", Timestamps.format(row.runAt()));
        }
        return out;
    }

    static UUID jobIdField(Body b) {
        String id = b.string("job_id", true);
        try {
            if (id.length() == 36) {
                return UUID.fromString(id);
            }
        } catch (IllegalArgumentException e) {
            // fall through
        }
        throw OjsException.invalidField("job_id", "'job_id' must be a job id (a UUID).", "uuid", id);
    }

    static String workerId(Body b) {
        String w = b.string("worker_id", false);
        if (w != null && (w.isEmpty() || w.length() > 255)) {
            throw OjsException.invalidField("worker_id", "'worker_id' must be 1 to 255 characters.");
        }
        return w;
    }
}
