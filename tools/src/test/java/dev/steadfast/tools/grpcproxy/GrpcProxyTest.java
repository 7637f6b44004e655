package dev.steadfast.tools.grpcproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Any;
import com.google.protobuf.Value;
import com.google.protobuf.util.Durations;
import com.google.protobuf.util.Timestamps;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import com.sun.net.httpserver.HttpServer;
import dev.steadfast.tools.testsupport.FakeGrpcServer;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openjobspec.ojs.v1.EnqueueRequest;
import org.openjobspec.ojs.v1.EnqueueResponse;
import org.openjobspec.ojs.v1.GetJobRequest;
import org.openjobspec.ojs.v1.GetJobResponse;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.JobState;
import org.openjobspec.ojs.v1.NackRequest;
import org.openjobspec.ojs.v1.NackResponse;
import org.openjobspec.ojs.v1.OJSServiceGrpc;
import org.openjobspec.ojs.v1.UniqueConflictAction;

/**
 * The proxy between an HTTP client and a small OJS gRPC server of the test's own: what each HTTP request becomes
 * as a message, how the response message and a refusal with ErrorInfo come back as the HTTP binding's JSON, and
 * what the proxy answers itself (a route without an RPC, a body no message can carry) without calling the server.
 */
class GrpcProxyTest {

    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final Queue<Object> received = new ConcurrentLinkedQueue<>();
    private FakeGrpcServer server;
    private GrpcProxy proxy;

    @BeforeEach
    void start() throws Exception {
        server = new FakeGrpcServer(new Fake());
        proxy = new GrpcProxy(server.port(), 0, "stf_test");
    }

    @AfterEach
    void stop() throws InterruptedException {
        proxy.close();
        server.close();
    }

    @Test
    void aPushIsEnqueueFieldByFieldAndItsJobComesBackAsTheEnvelope() throws Exception {
        HttpResponse<String> r = send("POST", "/ojs/v1/jobs", """
                {"type": "email.send", "args": [{"to": "ada"}, 3, null], "meta": {"user_id": "u1"}, "id": "ignored",
                 "options": {"queue": "mail", "priority": 7, "timeout_ms": 1500, "tags": ["a"],
                   "scheduled_at": "2030-01-02T03:04:05Z",
                   "retry": {"max_attempts": 4, "initial_interval": "PT1S", "backoff_coefficient": 2.0,
                             "max_interval": "PT5M", "jitter": true, "on_exhaustion": "dead_letter"},
                   "unique": {"keys": ["type", "args"], "period": "PT2S", "on_conflict": "reject",
                              "states": ["available", "active"]}}}""");
        assertEquals(201, r.statusCode(), r.body());
        EnqueueRequest e = (EnqueueRequest) received.remove();
        assertEquals("email.send", e.getType());
        assertEquals(3, e.getArgsCount());
        assertEquals("ada", e.getArgs(0).getStructValue().getFieldsOrThrow("to").getStringValue());
        assertEquals(3.0, e.getArgs(1).getNumberValue());
        assertEquals(Value.KindCase.NULL_VALUE, e.getArgs(2).getKindCase());
        assertEquals("u1", e.getOptions().getMeta().getFieldsOrThrow("user_id").getStringValue());
        assertEquals("mail", e.getOptions().getQueue());
        assertEquals(7, e.getOptions().getPriority());
        assertEquals(1500, Durations.toMillis(e.getOptions().getTimeout()));
        assertEquals("2030-01-02T03:04:05Z", Timestamps.toString(e.getOptions().getDelayUntil()));
        assertEquals(4, e.getOptions().getRetry().getMaxAttempts());
        assertEquals(1, e.getOptions().getRetry().getInitialInterval().getSeconds());
        assertEquals(300, e.getOptions().getRetry().getMaxInterval().getSeconds());
        assertTrue(e.getOptions().getRetry().getJitter());
        assertEquals(UniqueConflictAction.UNIQUE_CONFLICT_ACTION_REJECT, e.getOptions().getUnique().getOnConflict());
        assertEquals(JobState.JOB_STATE_ACTIVE, e.getOptions().getUnique().getStates(1));
        assertEquals("Bearer stf_test", server.authorization.remove());

        JsonNode job = json.readTree(r.body()).get("job");
        assertEquals("j-1", job.get("id").asText());
        assertEquals("available", job.get("state").asText());
        assertEquals("mail", job.get("queue").asText());
        assertEquals("ada", job.at("/args/0/to").asText());
        assertEquals(1500, job.get("timeout_ms").asLong());
        assertEquals("2030-01-02T03:04:05Z", job.get("created_at").asText());
        assertFalse(job.has("started_at"), "a timestamp the message leaves unset is not answered");
        assertFalse(job.has("cancelled_at"), "a field the message does not have is not made up");
    }

    @Test
    void aRefusalIsTheErrorEnvelopeWithTheHttpStatusOfItsOjsCode() throws Exception {
        HttpResponse<String> r = send("GET", "/ojs/v1/jobs/019539a4-0000-7000-8000-000000000000", null);
        assertEquals(404, r.statusCode(), r.body());
        JsonNode error = json.readTree(r.body()).get("error");
        assertEquals("not_found", error.get("code").asText());
        assertEquals("no such job", error.get("message").asText());
        assertFalse(error.get("retryable").asBoolean());
        assertEquals("req_1", error.get("request_id").asText());
        assertEquals("job", error.at("/details/resource").asText());
        assertEquals(3, error.at("/details/attempts").asInt(), "a detail that is JSON is answered as JSON");
    }

    @Test
    void aNackAnswersTheStateAndNextAttemptTheMessageCarries() throws Exception {
        HttpResponse<String> r = send("POST", "/ojs/v1/workers/nack", """
                {"job_id": "j-1", "error": {"code": "handler_error", "message": "boom", "retryable": true}}""");
        assertEquals(200, r.statusCode(), r.body());
        NackRequest n = (NackRequest) received.remove();
        assertEquals("j-1", n.getJobId());
        assertEquals("boom", n.getError().getMessage());
        assertTrue(n.getError().getRetryable());
        JsonNode body = json.readTree(r.body());
        assertEquals("retryable", body.get("state").asText());
        assertEquals("2030-01-01T00:00:00Z", body.get("next_attempt_at").asText());
        assertFalse(body.has("attempt"), "NackResponse has no attempt");
    }

    @Test
    void whatNoRpcCanCarryIsAnsweredByTheProxyWithoutCallingTheServer() throws Exception {
        HttpResponse<String> events = send("GET", "/ojs/v1/events?types=job.completed", null);
        assertEquals(501, events.statusCode());
        JsonNode e = json.readTree(events.body()).get("error");
        assertEquals("no_rpc", e.get("code").asText());
        assertTrue(e.get("message").asText().contains("GET /ojs/v1/events"), e.toString());
        assertEquals("grpc-proxy", e.at("/details/answered_by").asText());

        HttpResponse<String> notJson = send("POST", "/ojs/v1/jobs", "{not json");
        assertEquals(501, notJson.statusCode());
        assertEquals("not_expressible", json.readTree(notJson.body()).at("/error/code").asText());

        HttpResponse<String> argsObject = send("POST", "/ojs/v1/jobs", "{\"type\": \"t\", \"args\": {\"a\": 1}}");
        assertEquals(501, argsObject.statusCode());
        assertTrue(json.readTree(argsObject.body()).at("/error/message").asText().contains("'args'"));
        assertTrue(received.isEmpty(), "nothing reached the server: " + received);
    }

    @Test
    void onlyTheResetHookGoesToTheServersHttpPortWithTheTokenWhenTheCallerSendsNone() throws Exception {
        Queue<String> resets = new ConcurrentLinkedQueue<>();
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/", ex -> {
            resets.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath() + " "
                    + ex.getRequestHeaders().getFirst("Authorization"));
            byte[] answer = "{\"reset\": true}".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, answer.length);
            ex.getResponseBody().write(answer);
            ex.close();
        });
        http.start();
        try (GrpcProxy toHttp = new GrpcProxy(http.getAddress().getPort(), 0, "stf_test")) {
            HttpResponse<String> r = this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + toHttp.port() + "/ojs/v1/admin/reset")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(json.readTree(r.body()).get("reset").asBoolean());
            assertEquals(List.of("POST /ojs/v1/admin/reset Bearer stf_test"), List.copyOf(resets));
        } finally {
            http.stop(0);
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Answers Enqueue, GetJob (always NOT_FOUND with ErrorInfo) and Nack, keeping each request. */
    private final class Fake extends OJSServiceGrpc.OJSServiceImplBase {

        @Override
        public void enqueue(EnqueueRequest r, StreamObserver<EnqueueResponse> out) {
            received.add(r);
            Job.Builder j = Job.newBuilder().setId("j-1").setType(r.getType()).setQueue(r.getOptions().getQueue())
                    .setState(JobState.JOB_STATE_AVAILABLE).addAllArgs(r.getArgsList())
                    .setTimeout(r.getOptions().getTimeout())
                    .setCreatedAt(Timestamps.fromMillis(1893553445000L));
            out.onNext(EnqueueResponse.newBuilder().setJob(j).build());
            out.onCompleted();
        }

        @Override
        public void getJob(GetJobRequest r, StreamObserver<GetJobResponse> out) {
            ErrorInfo info = ErrorInfo.newBuilder().setReason("not_found").setDomain("openjobspec.org")
                    .putMetadata("retryable", "false").putMetadata("request_id", "req_1")
                    .putMetadata("resource", "job").putMetadata("attempts", "3").build();
            out.onError(StatusProto.toStatusRuntimeException(com.google.rpc.Status.newBuilder()
                    .setCode(Code.NOT_FOUND_VALUE).setMessage("no such job").addDetails(Any.pack(info)).build()));
        }

        @Override
        public void nack(NackRequest r, StreamObserver<NackResponse> out) {
            received.add(r);
            out.onNext(NackResponse.newBuilder().setState(JobState.JOB_STATE_RETRYABLE)
                    .setNextAttemptAt(Timestamps.fromMillis(1893456000000L)).build());
            out.onCompleted();
        }
    }
}
