package dev.steadfast.grpc;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.newUuidV7;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.GrpcCalls.assertStatus;
import static dev.steadfast.testsupport.GrpcCalls.key;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.rpc.ErrorInfo;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.GrpcCalls;
import dev.steadfast.testsupport.JsonPaths;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openjobspec.ojs.v1.AckRequest;
import org.openjobspec.ojs.v1.BatchJobEntry;
import org.openjobspec.ojs.v1.CancelJobRequest;
import org.openjobspec.ojs.v1.EnqueueBatchRequest;
import org.openjobspec.ojs.v1.EnqueueBatchResponse;
import org.openjobspec.ojs.v1.EnqueueOptions;
import org.openjobspec.ojs.v1.EnqueueRequest;
import org.openjobspec.ojs.v1.FetchRequest;
import org.openjobspec.ojs.v1.FetchResponse;
import org.openjobspec.ojs.v1.GetJobRequest;
import org.openjobspec.ojs.v1.HealthRequest;
import org.openjobspec.ojs.v1.HealthStatus;
import org.openjobspec.ojs.v1.HeartbeatRequest;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.JobError;
import org.openjobspec.ojs.v1.JobState;
import org.openjobspec.ojs.v1.ManifestRequest;
import org.openjobspec.ojs.v1.ManifestResponse;
import org.openjobspec.ojs.v1.NackRequest;
import org.openjobspec.ojs.v1.NackResponse;
import org.openjobspec.ojs.v1.OJSServiceGrpc.OJSServiceBlockingStub;
import org.openjobspec.ojs.v1.RetryPolicy;
import org.openjobspec.ojs.v1.UniqueConflictAction;
import org.openjobspec.ojs.v1.UniquePolicy;
import org.openjobspec.ojs.v1.WorkerState;

/**
 * The level 0-1 RPCs of the OJS gRPC binding (ojs-grpc-binding.md 4) through a grpc-java client on the HTTP port,
 * each with its refusals (status code of section 7, ErrorInfo of section 8), and one job state shared with the HTTP
 * binding (section 12.1): pushed over one protocol, fetched over the other and acknowledged over the first.
 */
@QuarkusTest
class OjsGrpcServiceTest {

    private GrpcCalls grpc;
    private OJSServiceBlockingStub ojs;

    @BeforeEach
    void setUp() {
        Api.reset();
        grpc = new GrpcCalls();
        ojs = grpc.stub();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        grpc.close();
    }

    private static Value text(String s) {
        return Value.newBuilder().setStringValue(s).build();
    }

    private static Value number(double d) {
        return Value.newBuilder().setNumberValue(d).build();
    }

    private static EnqueueRequest grpcJob(String type, String queue, Value... args) {
        return EnqueueRequest.newBuilder().setType(type).addAllArgs(List.of(args))
                .setOptions(EnqueueOptions.newBuilder().setQueue(queue)).build();
    }

    private static String queue() {
        return "grpc-" + newUuidV7().substring(24);
    }

    /** Calls are counted and timed by service, method and status code, refusals too (Micrometer's gRPC metrics). */
    @Test
    void callsAppearInTheMetricsByMethodAndStatus() {
        ojs.manifest(ManifestRequest.getDefaultInstance());
        assertThrows(StatusRuntimeException.class, () -> ojs.getJob(GetJobRequest.newBuilder()
                .setJobId(newUuidV7()).build()));
        String metrics = Api.request().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("grpc_server_processing_duration_seconds_count")
                && l.contains("method=\"Manifest\"") && l.contains("statusCode=\"OK\"") && !l.endsWith(" 0.0")),
                "no Manifest call counted");
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("grpc_server_processing_duration_seconds_count")
                && l.contains("method=\"GetJob\"") && l.contains("statusCode=\"NOT_FOUND\"")),
                "no NOT_FOUND GetJob counted");
    }

    @Test
    void manifestListsBothProtocolsAndMatchesTheHttpManifest() {
        ManifestResponse m = ojs.manifest(ManifestRequest.getDefaultInstance());
        assertEquals(List.of("http", "grpc"), m.getProtocolsList());
        assertEquals(4, m.getConformanceLevel());
        assertEquals("steadfast", m.getImplementation().getName());
        assertEquals("postgres", m.getBackend());
        List<String> http = path(Api.request().get("/ojs/manifest"), "protocols");
        assertEquals(List.of("http", "grpc"), http);
        assertTrue(m.getExtensionsList().contains("dead-letter"));
    }

    @Test
    void responseMetadataEchoesTheRequestIdAndNamesTheServer() {
        OJSServiceBlockingStub withId = grpc.stub("x-ojs-request-id", "req_grpc-test-1");
        withId.health(HealthRequest.getDefaultInstance());
        assertEquals("req_grpc-test-1", grpc.lastHeaders().get(key("x-ojs-request-id")));
        assertTrue(grpc.lastHeaders().get(key("x-ojs-server-version")).startsWith("steadfast/"));
        assertEquals("4", grpc.lastHeaders().get(key("x-ojs-conformance-level")));
        // without one the server makes one up; an error answer carries it too (trailers only)
        ErrorInfo info = assertStatus(Status.Code.NOT_FOUND, "not_found",
                () -> ojs.getJob(GetJobRequest.newBuilder().setJobId(newUuidV7()).build()));
        String made = grpc.lastHeaders().get(key("x-ojs-request-id"));
        assertTrue(made.startsWith("req_"), made);
        assertEquals(made, info.getMetadataMap().get("request_id"));
    }

    @Test
    void healthIsOkWithTheDatabaseUp() {
        var h = ojs.health(HealthRequest.getDefaultInstance());
        assertEquals(HealthStatus.HEALTH_STATUS_OK, h.getStatus());
        assertEquals("ok", h.getDetails().getFieldsOrThrow("backend").getStringValue());
        assertTrue(h.getTimestamp().getSeconds() > 0);
    }

    @Test
    void enqueueCreatesTheJobHttpSeesWithTheSameArgs() {
        String q = queue();
        Value obj = Value.newBuilder().setStructValue(Struct.newBuilder().putFields("k",
                Value.newBuilder().setBoolValue(true).build())).build();
        Job j = ojs.enqueue(grpcJob("email.send", q, text("a"), number(3), number(2.5), obj)).getJob();
        assertTrue(Api.UUID_V7.matcher(j.getId()).matches(), j.getId());
        assertEquals(JobState.JOB_STATE_AVAILABLE, j.getState());
        assertEquals(q, j.getQueue());
        assertEquals("email.send", j.getType());
        assertTrue(j.hasCreatedAt());
        Map<String, Object> view = jobView(j.getId());
        assertEquals("available", view.get("state"));
        assertEquals("[\"a\",3,2.5,{\"k\":true}]", Api.json(view.get("args")));
    }

    @Test
    void enqueueCopiesTraceparentIntoTheJobsMeta() {
        String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        Job j = grpc.stub("traceparent", parent).enqueue(grpcJob("traced", queue())).getJob();
        assertEquals(parent, j.getMeta().getFieldsOrThrow("traceparent").getStringValue());
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", j.getTraceId());
        Map<String, Object> meta = (Map<String, Object>) jobView(j.getId()).get("meta");
        assertEquals(parent, meta.get("traceparent"));
    }

    @Test
    void enqueueRefusesBadInputAsInvalidArgument() {
        ErrorInfo missingType = assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.enqueue(EnqueueRequest.newBuilder().build()));
        assertEquals("false", missingType.getMetadataMap().get("retryable"));
        // an enum number the protos do not define reaches the reader and is refused, not an internal error
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request", () -> ojs.enqueue(grpcJob("t", queue()).toBuilder()
                .setOptions(EnqueueOptions.newBuilder().setQueue("q").setUnique(UniquePolicy.newBuilder()
                        .addKey("type").setOnConflictValue(42))).build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request", () -> ojs.enqueue(grpcJob("t", "Bad Queue!")));
    }

    /**
     * A message over the request limit (steadfast.http.max-body-bytes, 1 MiB) is refused as an HTTP body over it is
     * (payload_too_large, the limit in the details); one over four times the limit is refused unread by the gRPC
     * server (RESOURCE_EXHAUSTED); the next call works.
     */
    @Test
    void aMessageOverTheRequestLimitIsRefusedAndHarmsNoOtherCall() {
        String q = queue();
        ErrorInfo info = assertStatus(Status.Code.INVALID_ARGUMENT, "payload_too_large",
                () -> ojs.enqueue(grpcJob("big", q, text("x".repeat(1_100_000)))));
        assertEquals("1048576", info.getMetadataMap().get("limit_bytes"));
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> ojs.enqueue(grpcJob("huge", q, text("x".repeat(4_300_000)))));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode(), e.getStatus().toString());
        assertEquals(q, ojs.enqueue(grpcJob("small", q, text("x".repeat(900_000)))).getJob().getQueue());
    }

    @Test
    void aRejectedDuplicateIsAlreadyExists() {
        EnqueueRequest unique = grpcJob("report.build", queue(), text("r1")).toBuilder()
                .setOptions(EnqueueOptions.newBuilder().setUnique(UniquePolicy.newBuilder().addKey("type")
                        .addKey("args").setOnConflict(UniqueConflictAction.UNIQUE_CONFLICT_ACTION_REJECT))).build();
        ojs.enqueue(unique);
        assertStatus(Status.Code.ALREADY_EXISTS, "duplicate", () -> ojs.enqueue(unique));
    }

    @Test
    void enqueueBatchCreatesEveryJobWithTheDefaultOptionsOrNone() {
        String q = queue();
        EnqueueBatchResponse r = ojs.enqueueBatch(EnqueueBatchRequest.newBuilder()
                .setDefaultOptions(EnqueueOptions.newBuilder().setQueue(q).setPriority(5))
                .addJobs(BatchJobEntry.newBuilder().setType("a").addArgs(number(1)))
                .addJobs(BatchJobEntry.newBuilder().setType("b")
                        .setOptions(EnqueueOptions.newBuilder().setPriority(9))).build());
        assertEquals(2, r.getCount());
        assertEquals(q, r.getJobs(0).getQueue());
        assertEquals(q, r.getJobs(1).getQueue());
        assertEquals(5, r.getJobs(0).getPriority());
        assertEquals(9, r.getJobs(1).getPriority());
        assertEquals("available", state(r.getJobs(1).getId()));

        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.enqueueBatch(EnqueueBatchRequest.getDefaultInstance()));
        // all or nothing: the second job's refusal names its index and nothing is created
        ErrorInfo bad = assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.enqueueBatch(EnqueueBatchRequest.newBuilder()
                        .addJobs(BatchJobEntry.newBuilder().setType("ok")
                                .setOptions(EnqueueOptions.newBuilder().setQueue(q)))
                        .addJobs(BatchJobEntry.newBuilder()).build()));
        assertEquals("1", bad.getMetadataMap().get("index"), bad.getMetadataMap().toString());
        assertEquals(2, JsonPaths.<Integer>path(Api.request().get(Api.QUEUES + "/" + q + "/stats"), "stats.available"));
    }

    /**
     * The x-ojs-tenant metadata does what the X-OJS-Tenant header does (docs/concepts/tenants.md): it names the
     * tenant of an enqueued job, a Fetch naming a tenant gets only that tenant's jobs, and GetJob and CancelJob
     * naming another tenant answer NOT_FOUND.
     */
    /** Job.retry_policy carries the policy HTTP answers as {@code retry}, the server's defaults filled in. */
    @Test
    void aJobAnswersItsRetryPolicyAsHttpDoes() {
        RetryPolicy asked = RetryPolicy.newBuilder().setMaxAttempts(4)
                .setInitialInterval(com.google.protobuf.Duration.newBuilder().setSeconds(2))
                .setBackoffCoefficient(3.0).setJitter(true).addNonRetryableErrors("fatal.*")
                .setOnExhaustion("dead_letter").build();
        String id = ojs.enqueue(EnqueueRequest.newBuilder().setType("retry.me").setOptions(EnqueueOptions.newBuilder()
                .setQueue(queue()).setRetry(asked)).build()).getJob().getId();
        RetryPolicy p = ojs.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getRetryPolicy();
        assertEquals(asked.toBuilder().setMaxInterval(p.getMaxInterval()).build(), p);
        Map<?, ?> http = (Map<?, ?>) jobView(id).get("retry");
        assertEquals(java.time.Duration.parse((String) http.get("max_interval")).getSeconds(),
                p.getMaxInterval().getSeconds(), "the default max_interval, as HTTP shows it");
        assertTrue(p.getMaxInterval().getSeconds() > 0);
    }

    @Test
    void aJobAnswersItsUniquePolicyAsItWasSentOverEitherBinding() {
        UniquePolicy asked = UniquePolicy.newBuilder().addKey("type").addKey("args").addArgsKeys("user")
                .setPeriod(com.google.protobuf.Duration.newBuilder().setSeconds(3600))
                .setOnConflict(UniqueConflictAction.UNIQUE_CONFLICT_ACTION_IGNORE)
                .addStates(JobState.JOB_STATE_AVAILABLE).build();
        String id = ojs.enqueue(EnqueueRequest.newBuilder().setType("unique.me").addArgs(Value.newBuilder()
                .setStructValue(Struct.newBuilder().putFields("user", Value.newBuilder().setStringValue("u1").build())))
                .setOptions(EnqueueOptions.newBuilder().setQueue(queue()).setUnique(asked)).build()).getJob().getId();
        assertEquals(asked, ojs.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getUniquePolicy());

        // over HTTP, with the forms only HTTP has: key as an array of args fields, an ISO 8601 period
        String http = enqueue(obj("type", "unique.me", "args", arr(obj("user", "u2")), "options", obj("queue", queue(),
                "unique", obj("key", arr("user"), "period", "PT30M", "on_conflict", "reject"))));
        UniquePolicy p = ojs.getJob(GetJobRequest.newBuilder().setJobId(http).build()).getJob().getUniquePolicy();
        assertEquals(UniquePolicy.newBuilder().addKey("args").addArgsKeys("user")
                .setPeriod(com.google.protobuf.Duration.newBuilder().setSeconds(1800))
                .setOnConflict(UniqueConflictAction.UNIQUE_CONFLICT_ACTION_REJECT).build(), p);

        // a period in months, which PUSH accepts (30 days each) and java.time.Duration would not read
        String months = enqueue(obj("type", "unique.me", "args", arr(obj("user", "u3")), "options", obj("queue",
                queue(), "unique", obj("keys", arr("type"), "period", "P1M"))));
        assertEquals(30L * 86_400, ojs.getJob(GetJobRequest.newBuilder().setJobId(months).build()).getJob()
                .getUniquePolicy().getPeriod().getSeconds());

        String plain = ojs.enqueue(grpcJob("plain.me", queue())).getJob().getId();
        assertFalse(ojs.getJob(GetJobRequest.newBuilder().setJobId(plain).build()).getJob().hasUniquePolicy());
    }

    @Test
    void theTenantMetadataNamesTheJobsTenantAndNarrowsFetch() {
        String q = queue();
        Job acme = grpc.stub("x-ojs-tenant", "acme").enqueue(grpcJob("t", q)).getJob();
        assertEquals("acme", ((Map<?, ?>) jobView(acme.getId()).get("meta")).get("tenant_id"));
        String beta = grpc.stub("x-ojs-tenant", "beta").enqueue(grpcJob("t", q)).getJob().getId();
        FetchResponse f = grpc.stub("x-ojs-tenant", "beta").fetch(FetchRequest.newBuilder().addQueues(q).setCount(10)
                .setWorkerId("w-beta").build());
        assertEquals(List.of(beta), f.getJobsList().stream().map(Job::getId).toList());
        assertStatus(Status.Code.NOT_FOUND, "not_found", () -> grpc.stub("x-ojs-tenant", "beta")
                .getJob(GetJobRequest.newBuilder().setJobId(acme.getId()).build()));
        assertStatus(Status.Code.NOT_FOUND, "not_found", () -> grpc.stub("x-ojs-tenant", "beta")
                .cancelJob(CancelJobRequest.newBuilder().setJobId(acme.getId()).build()));
        assertEquals(acme.getId(), grpc.stub("x-ojs-tenant", "acme")
                .getJob(GetJobRequest.newBuilder().setJobId(acme.getId()).build()).getJob().getId());
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> grpc.stub("x-ojs-tenant", "bad tenant!").enqueue(grpcJob("t", q)));
    }

    @Test
    void getJobAnswersTheJobOrNotFound() {
        String id = enqueue(job("info.me", queue()));
        Job j = ojs.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
        assertEquals(id, j.getId());
        assertEquals("info.me", j.getType());
        assertStatus(Status.Code.NOT_FOUND, "not_found",
                () -> ojs.getJob(GetJobRequest.newBuilder().setJobId(newUuidV7()).build()));
        assertStatus(Status.Code.NOT_FOUND, "not_found",
                () -> ojs.getJob(GetJobRequest.newBuilder().setJobId("not-a-job").build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.getJob(GetJobRequest.getDefaultInstance()));
    }

    @Test
    void cancelJobCancelsOnceThenIsAFailedPrecondition() {
        String id = enqueue(job("cancel.me", queue()));
        Job j = ojs.cancelJob(CancelJobRequest.newBuilder().setJobId(id).build()).getJob();
        assertEquals(JobState.JOB_STATE_CANCELLED, j.getState());
        assertEquals("cancelled", state(id));
        assertStatus(Status.Code.FAILED_PRECONDITION, "conflict",
                () -> ojs.cancelJob(CancelJobRequest.newBuilder().setJobId(id).build()));
        assertStatus(Status.Code.NOT_FOUND, "not_found",
                () -> ojs.cancelJob(CancelJobRequest.newBuilder().setJobId(newUuidV7()).build()));
    }

    @Test
    void fetchLeasesJobsAndRefusesBadRequests() {
        String q = queue();
        String id = enqueue(job("fetch.me", q));
        List<Job> jobs = ojs.fetch(FetchRequest.newBuilder().addQueues(q).setWorkerId("w-grpc").build())
                .getJobsList();
        assertEquals(1, jobs.size());
        assertEquals(id, jobs.get(0).getId());
        assertEquals(JobState.JOB_STATE_ACTIVE, jobs.get(0).getState());
        assertEquals(1, jobs.get(0).getAttempt());
        assertEquals("active", state(id));
        assertEquals(0, ojs.fetch(FetchRequest.newBuilder().addQueues(q).build()).getJobsCount());

        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.fetch(FetchRequest.getDefaultInstance()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.fetch(FetchRequest.newBuilder().addQueues(q).setCount(-1).build()));
    }

    @Test
    void ackCompletesTheLeasedJobOnlyOnce() {
        String q = queue();
        String id = enqueue(job("ack.me", q));
        ojs.fetch(FetchRequest.newBuilder().addQueues(q).setWorkerId("w-grpc").build());
        Struct result = Struct.newBuilder().putFields("sent", Value.newBuilder().setNumberValue(2).build()).build();
        assertTrue(ojs.ack(AckRequest.newBuilder().setJobId(id).setResult(result).build()).getAcknowledged());
        Map<String, Object> view = jobView(id);
        assertEquals("completed", view.get("state"));
        assertEquals("{\"sent\":2}", Api.json(view.get("result")));
        assertEquals(2, ojs.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getResult()
                .getFieldsOrThrow("sent").getNumberValue());

        assertStatus(Status.Code.FAILED_PRECONDITION, "conflict",
                () -> ojs.ack(AckRequest.newBuilder().setJobId(id).build()));
        assertStatus(Status.Code.NOT_FOUND, "not_found",
                () -> ojs.ack(AckRequest.newBuilder().setJobId(newUuidV7()).build()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.ack(AckRequest.newBuilder().setJobId("nope").build()));
    }

    @Test
    void nackRecordsTheFailureAndSaysWhenTheJobRunsNext() {
        String q = queue();
        String id = enqueue(job("nack.me", q));
        ojs.fetch(FetchRequest.newBuilder().addQueues(q).setWorkerId("w-grpc").build());
        NackResponse n = ojs.nack(NackRequest.newBuilder().setJobId(id).setError(JobError.newBuilder()
                .setCode("handler_error").setMessage("smtp down").setRetryable(true)).build());
        assertEquals(JobState.JOB_STATE_RETRYABLE, n.getState());
        assertTrue(n.hasNextAttemptAt());
        Map<String, Object> view = jobView(id);
        assertEquals("retryable", view.get("state"));
        assertEquals("smtp down", ((Map<String, Object>) view.get("error")).get("message"));
        Job j = ojs.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob();
        assertEquals("smtp down", j.getErrors(0).getMessage());

        String other = enqueue(job("nack.me", q));
        ojs.fetch(FetchRequest.newBuilder().addQueues(q).build());
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.nack(NackRequest.newBuilder().setJobId(other).build()));
        assertStatus(Status.Code.NOT_FOUND, "not_found", () -> ojs.nack(NackRequest.newBuilder()
                .setJobId(newUuidV7()).setError(JobError.newBuilder().setMessage("x")).build()));
    }

    @Test
    void heartbeatExtendsTheWorkersLeasesAndDirectsIt() {
        String q = queue();
        String id = enqueue(job("beat.me", q));
        ojs.fetch(FetchRequest.newBuilder().addQueues(q).setWorkerId("w-beat").build());
        String before = (String) jobView(id).get("lease_expires_at");
        var perJob = ojs.heartbeat(HeartbeatRequest.newBuilder().setId(id).setWorkerId("w-beat")
                .setExtendBy(com.google.protobuf.Duration.newBuilder().setSeconds(600))
                .setCurrentState(WorkerState.WORKER_STATE_RUNNING).build());
        assertEquals(WorkerState.WORKER_STATE_RUNNING, perJob.getDirectedState());
        String after = (String) jobView(id).get("lease_expires_at");
        assertTrue(after.compareTo(before) > 0, before + " -> " + after);
        // worker-level: id names the worker
        assertEquals(WorkerState.WORKER_STATE_RUNNING,
                ojs.heartbeat(HeartbeatRequest.newBuilder().setId("w-beat").build()).getDirectedState());
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request",
                () -> ojs.heartbeat(HeartbeatRequest.getDefaultInstance()));
        assertStatus(Status.Code.INVALID_ARGUMENT, "invalid_request", () -> ojs.heartbeat(HeartbeatRequest
                .newBuilder().setId("w-beat").setCurrentStateValue(17).build()));
    }

    @Test
    void pushedOverHttpFetchedOverGrpcAckedOverHttp() {
        String q = queue();
        String id = enqueue(job("cross.one", q));
        List<Job> got = ojs.fetch(FetchRequest.newBuilder().addQueues(q).setWorkerId("w-x").build()).getJobsList();
        assertEquals(List.of(id), got.stream().map(Job::getId).toList());
        assertEquals(200, ack(id, "w-x", obj("ok", true)).statusCode());
        assertEquals("completed", state(id));
        assertEquals(JobState.JOB_STATE_COMPLETED,
                ojs.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getState());
    }

    @Test
    void pushedOverGrpcFetchedOverHttpAckedOverGrpc() {
        String q = queue();
        String id = ojs.enqueue(grpcJob("cross.two", q, text("x"))).getJob().getId();
        assertEquals(id, fetchOne("w-y", q));
        assertTrue(ojs.ack(AckRequest.newBuilder().setJobId(id).build()).getAcknowledged());
        assertEquals(JobState.JOB_STATE_COMPLETED,
                ojs.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getState());
        assertEquals("completed", state(id));
        assertFalse(ojs.getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getArgsList().isEmpty());
        assertNotNull(ListValue.getDefaultInstance());
    }
}
