package dev.steadfast.tools.grpcproxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjobspec.ojs.v1.CancelJobRequest;
import org.openjobspec.ojs.v1.CancelWorkflowRequest;
import org.openjobspec.ojs.v1.DeleteDeadLetterRequest;
import org.openjobspec.ojs.v1.EnqueueBatchResponse;
import org.openjobspec.ojs.v1.GetJobRequest;
import org.openjobspec.ojs.v1.GetWorkflowRequest;
import org.openjobspec.ojs.v1.HealthRequest;
import org.openjobspec.ojs.v1.ListCronRequest;
import org.openjobspec.ojs.v1.ListCronResponse;
import org.openjobspec.ojs.v1.ListDeadLetterRequest;
import org.openjobspec.ojs.v1.ListDeadLetterResponse;
import org.openjobspec.ojs.v1.ManifestRequest;
import org.openjobspec.ojs.v1.OJSServiceGrpc;
import org.openjobspec.ojs.v1.PauseQueueRequest;
import org.openjobspec.ojs.v1.QueueStatsRequest;
import org.openjobspec.ojs.v1.RegisterCronResponse;
import org.openjobspec.ojs.v1.ResumeQueueRequest;
import org.openjobspec.ojs.v1.RetryDeadLetterRequest;
import org.openjobspec.ojs.v1.UnregisterCronRequest;

/**
 * Every route of the HTTP binding that the level 0-4 conformance cases use, each with the one RPC that stands for
 * it (ojs-grpc-binding.md 4): the request is read into that RPC's message ({@link Requests}), the RPC is called,
 * its response message is answered as JSON ({@link Answers}) with the status the HTTP route answers on success. An
 * empty response message (PauseQueue, DeleteDeadLetter, UnregisterCron...) is an empty object.
 */
final class Routes {

    /** One route: method, path pattern, and what answers it from the path's groups, the query and the body. */
    record Route(String method, Pattern path, Handler handler) {
    }

    @FunctionalInterface
    interface Handler {
        HttpReply answer(Matcher path, Map<String, String> query, JsonNode body);
    }

    private final List<Route> routes;

    Routes(OJSServiceGrpc.OJSServiceBlockingStub grpc, ObjectMapper json) {
        Requests req = new Requests(new RequestFields(json));
        Answers a = new Answers(json);
        OJSServiceGrpc.OJSServiceBlockingStub s = grpc;
        this.routes = List.of(
                route("GET", "/ojs/manifest", (p, q, b) -> ok(a.manifest(call(s).manifest(
                        ManifestRequest.getDefaultInstance())))),
                route("GET", "/ojs/v1/health", (p, q, b) -> ok(a.health(call(s).health(
                        HealthRequest.getDefaultInstance())))),
                route("POST", "/ojs/v1/jobs", (p, q, b) -> new HttpReply(201,
                        a.wrap("job", a.job(call(s).enqueue(req.enqueue(b)).getJob())))),
                route("POST", "/ojs/v1/jobs/batch", (p, q, b) -> {
                    EnqueueBatchResponse r = call(s).enqueueBatch(req.batch(b));
                    return new HttpReply(201, a.wrap("jobs", a.jobs(r.getJobsList())).put("count", r.getCount()));
                }),
                route("GET", "/ojs/v1/jobs/([^/]+)", (p, q, b) -> ok(a.wrap("job", a.job(call(s).getJob(
                        GetJobRequest.newBuilder().setJobId(p.group(1)).build()).getJob())))),
                route("DELETE", "/ojs/v1/jobs/([^/]+)", (p, q, b) -> ok(a.wrap("job", a.job(call(s).cancelJob(
                        CancelJobRequest.newBuilder().setJobId(p.group(1)).build()).getJob())))),
                route("POST", "/ojs/v1/workers/fetch", (p, q, b) -> ok(a.wrap("jobs",
                        a.jobs(call(s).fetch(req.fetch(b)).getJobsList())))),
                route("POST", "/ojs/v1/workers/ack", (p, q, b) -> ok(a.object().put("acknowledged",
                        call(s).ack(req.ack(b)).getAcknowledged()))),
                route("POST", "/ojs/v1/workers/nack", (p, q, b) -> ok(a.nack(call(s).nack(req.nack(b))))),
                route("POST", "/ojs/v1/workers/heartbeat", (p, q, b) -> ok(a.object().put("state",
                        Answers.wire(call(s).heartbeat(req.heartbeat(b)).getDirectedState(), "WORKER_STATE_")))),
                route("GET", "/ojs/v1/dead-letter", (p, q, b) -> {
                    ListDeadLetterResponse r = call(s).listDeadLetter(ListDeadLetterRequest.newBuilder()
                            .setQueue(q.getOrDefault("queue", "")).setLimit(limit(q))
                            .setCursor(q.getOrDefault("cursor", "")).build());
                    return ok(a.wrap("jobs", a.jobs(r.getJobsList())).put("total_count", r.getTotalCount())
                            .put("next_cursor", r.getNextCursor()));
                }),
                route("POST", "/ojs/v1/dead-letter/([^/]+)/retry", (p, q, b) -> ok(a.wrap("job", a.job(
                        call(s).retryDeadLetter(RetryDeadLetterRequest.newBuilder().setJobId(p.group(1)).build())
                                .getJob())))),
                route("DELETE", "/ojs/v1/dead-letter/([^/]+)", (p, q, b) -> {
                    call(s).deleteDeadLetter(DeleteDeadLetterRequest.newBuilder().setJobId(p.group(1)).build());
                    return ok(a.object());
                }),
                route("GET", "/ojs/v1/cron", (p, q, b) -> {
                    ListCronResponse r = call(s).listCron(ListCronRequest.getDefaultInstance());
                    var crons = a.object().putArray("crons");
                    r.getEntriesList().forEach(c -> crons.add(a.cron(c)));
                    return ok(a.wrap("crons", crons));
                }),
                route("POST", "/ojs/v1/cron", (p, q, b) -> {
                    RegisterCronResponse r = call(s).registerCron(req.cron(b));
                    var cron = a.object().put("name", r.getName());
                    if (r.hasNextRunAt()) {
                        cron.put("next_run_at", com.google.protobuf.util.Timestamps.toString(r.getNextRunAt()));
                    }
                    return new HttpReply(201, a.wrap("cron", cron));
                }),
                route("DELETE", "/ojs/v1/cron/([^/]+)", (p, q, b) -> {
                    call(s).unregisterCron(UnregisterCronRequest.newBuilder().setName(p.group(1)).build());
                    return ok(a.object());
                }),
                route("POST", "/ojs/v1/workflows", (p, q, b) -> new HttpReply(201, a.wrap("workflow",
                        a.workflow(call(s).createWorkflow(req.workflow(b)).getWorkflow())))),
                route("GET", "/ojs/v1/workflows/([^/]+)", (p, q, b) -> ok(a.wrap("workflow", a.workflow(
                        call(s).getWorkflow(GetWorkflowRequest.newBuilder().setWorkflowId(p.group(1)).build())
                                .getWorkflow())))),
                route("DELETE", "/ojs/v1/workflows/([^/]+)", (p, q, b) -> ok(a.wrap("workflow", a.workflow(
                        call(s).cancelWorkflow(CancelWorkflowRequest.newBuilder().setWorkflowId(p.group(1)).build())
                                .getWorkflow())))),
                route("GET", "/ojs/v1/queues/([^/]+)/stats", (p, q, b) -> ok(a.queueStats(call(s).queueStats(
                        QueueStatsRequest.newBuilder().setQueue(p.group(1)).build())))),
                route("POST", "/ojs/v1/queues/([^/]+)/pause", (p, q, b) -> {
                    call(s).pauseQueue(PauseQueueRequest.newBuilder().setQueue(p.group(1)).build());
                    return ok(a.object());
                }),
                route("POST", "/ojs/v1/queues/([^/]+)/resume", (p, q, b) -> {
                    call(s).resumeQueue(ResumeQueueRequest.newBuilder().setQueue(p.group(1)).build());
                    return ok(a.object());
                }));
    }

    /** The route for {@code method} and {@code path} with its matched path, or null when none has that path. */
    Matched find(String method, String path) {
        boolean pathKnown = false;
        for (Route r : routes) {
            Matcher m = r.path().matcher(path);
            if (m.matches()) {
                pathKnown = true;
                if (r.method().equals(method)) {
                    return new Matched(r, m);
                }
            }
        }
        return pathKnown ? new Matched(null, null) : null;
    }

    /** A route and its matched path; both null when the path has routes but none for this method. */
    record Matched(Route route, Matcher path) {
    }

    private static Route route(String method, String path, Handler h) {
        return new Route(method, Pattern.compile(path), h);
    }

    private static HttpReply ok(JsonNode body) {
        return new HttpReply(200, body);
    }

    /** Each call with its own deadline, so a stuck server fails the step rather than the whole run. */
    private static OJSServiceGrpc.OJSServiceBlockingStub call(OJSServiceGrpc.OJSServiceBlockingStub s) {
        return s.withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    private static int limit(Map<String, String> q) {
        String l = q.get("limit");
        if (l == null) {
            return 0;
        }
        try {
            return Integer.parseInt(l);
        } catch (NumberFormatException e) {
            throw new NotExpressible("query 'limit' (" + l + ") is not an int32");
        }
    }
}
