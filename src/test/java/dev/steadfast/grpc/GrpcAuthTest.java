package dev.steadfast.grpc;

import static dev.steadfast.testsupport.GrpcCalls.assertStatus;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.rpc.ErrorInfo;
import dev.steadfast.testsupport.Profiles;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import dev.steadfast.http.ApiAuthTest;
import dev.steadfast.testsupport.GrpcCalls;
import io.grpc.Status;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openjobspec.ojs.v1.CancelJobRequest;
import org.openjobspec.ojs.v1.EnqueueOptions;
import org.openjobspec.ojs.v1.EnqueueRequest;
import org.openjobspec.ojs.v1.FetchRequest;
import org.openjobspec.ojs.v1.GetJobRequest;
import org.openjobspec.ojs.v1.HealthRequest;
import org.openjobspec.ojs.v1.ManifestRequest;
import org.openjobspec.ojs.v1.PauseQueueRequest;
import org.openjobspec.ojs.v1.ResumeQueueRequest;

/**
 * With authentication on, gRPC calls carry the same bearer tokens as HTTP (the {@code authorization} metadata, or
 * {@code x-ojs-api-key}) and meet the same role matrix as the HTTP route each RPC stands for: no token or an
 * unknown one is UNAUTHENTICATED, a token without the role is PERMISSION_DENIED, each with the binding's ErrorInfo;
 * Manifest and Health stay public. The tokens are ApiAuthTest's.
 */
@QuarkusTest
@TestProfile(Profiles.Tokens.class)
class GrpcAuthTest {

    static final String PRODUCER = "test-producer-token";
    static final String WORKER = "test-worker-token";
    static final String READONLY = "test-readonly-token";

    private GrpcCalls grpc;
    private final String queue = "grpc-auth-" + dev.steadfast.testsupport.Api.newUuidV7().substring(24);

    @BeforeEach
    void setUp() {
        grpc = new GrpcCalls();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        grpc.close();
    }

    private EnqueueRequest push() {
        return EnqueueRequest.newBuilder().setType("auth.check")
                .setOptions(EnqueueOptions.newBuilder().setQueue(queue)).build();
    }

    @Test
    void withoutATokenOnlyManifestAndHealthAnswer() {
        assertEquals(4, grpc.stub().manifest(ManifestRequest.getDefaultInstance()).getConformanceLevel());
        grpc.stub().health(HealthRequest.getDefaultInstance());
        ErrorInfo info = assertStatus(Status.Code.UNAUTHENTICATED, "unauthenticated",
                () -> grpc.stub().enqueue(push()));
        assertEquals("Bearer", info.getMetadataMap().get("scheme"));
        assertStatus(Status.Code.UNAUTHENTICATED, "unauthenticated",
                () -> grpc.stub().fetch(FetchRequest.newBuilder().addQueues(queue).build()));
    }

    @Test
    void aMalformedOrUnknownTokenIsUnauthenticated() {
        assertStatus(Status.Code.UNAUTHENTICATED, "unauthenticated",
                () -> grpc.stub("authorization", "Basic dXNlcjpwdw==").enqueue(push()));
        assertStatus(Status.Code.UNAUTHENTICATED, "unauthenticated",
                () -> grpc.stub("authorization", "Bearer not-a-token").enqueue(push()));
        assertStatus(Status.Code.UNAUTHENTICATED, "unauthenticated",
                () -> grpc.stub("x-ojs-api-key", "not-a-token").enqueue(push()));
    }

    @Test
    void aTokenWithoutTheRoleIsPermissionDenied() {
        ErrorInfo info = assertStatus(Status.Code.PERMISSION_DENIED, "permission_denied",
                () -> grpc.stub("authorization", "Bearer " + WORKER).enqueue(push()));
        assertTrue(info.getMetadataMap().get("required_roles").contains("producer"), info.getMetadataMap().toString());
        assertStatus(Status.Code.PERMISSION_DENIED, "permission_denied", () -> grpc.stub("authorization",
                "Bearer " + PRODUCER).fetch(FetchRequest.newBuilder().addQueues(queue).build()));
        assertStatus(Status.Code.PERMISSION_DENIED, "permission_denied", () -> grpc.stub("authorization",
                "Bearer " + READONLY).enqueue(push()));
    }

    @Test
    void theRightRolePasses() {
        String id = grpc.stub("authorization", "Bearer " + PRODUCER).enqueue(push()).getJob().getId();
        assertEquals(id, grpc.stub("x-ojs-api-key", PRODUCER)
                .getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getId());
        assertEquals(id, grpc.stub("authorization", "Bearer " + READONLY)
                .getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getId());
        assertEquals(1, grpc.stub("authorization", "bearer " + WORKER)
                .fetch(FetchRequest.newBuilder().addQueues(queue).setCount(5).build()).getJobsCount());
    }

    /**
     * The standard gRPC health service answers without a token, as GET /ojs/v1/health does (a load balancer probes
     * it), and so does server reflection, which describes what the public manifest describes; before, both fell to
     * the admin role of methods the access table does not name.
     */
    @Test
    void theStandardHealthServiceAndReflectionAnswerWithoutAToken() throws Exception {
        HealthCheckResponse health = HealthGrpc
                .newBlockingStub(grpc.channel())
                .check(HealthCheckRequest.getDefaultInstance());
        assertEquals(HealthCheckResponse.ServingStatus.SERVING, health.getStatus());

        java.util.concurrent.CompletableFuture<java.util.List<String>> services = new java.util.concurrent.CompletableFuture<>();
        io.grpc.stub.StreamObserver<io.grpc.reflection.v1.ServerReflectionRequest> requests =
                io.grpc.reflection.v1.ServerReflectionGrpc.newStub(grpc.channel()).serverReflectionInfo(
                        new io.grpc.stub.StreamObserver<>() {
                            @Override
                            public void onNext(io.grpc.reflection.v1.ServerReflectionResponse r) {
                                services.complete(r.getListServicesResponse().getServiceList().stream()
                                        .map(io.grpc.reflection.v1.ServiceResponse::getName).toList());
                            }

                            @Override
                            public void onError(Throwable t) {
                                services.completeExceptionally(t);
                            }

                            @Override
                            public void onCompleted() {
                            }
                        });
        requests.onNext(io.grpc.reflection.v1.ServerReflectionRequest.newBuilder().setListServices("*").build());
        java.util.List<String> names = services.get(10, java.util.concurrent.TimeUnit.SECONDS);
        requests.onCompleted();
        assertTrue(names.contains("ojs.v1.OJSService"), names.toString());
    }

    private static io.restassured.response.Response newestAudit(String actor) {
        return io.restassured.RestAssured.given().header("Authorization", "Bearer " + READONLY)
                .get("/ojs/v1/admin/audit?limit=1&actor=" + actor).then().statusCode(200).extract().response();
    }

    /**
     * The audit log records the gRPC changes it records over HTTP, under the HTTP route's action, with the token's
     * name, the scope the route has and binding grpc; a refused change by a known token as refused; a call
     * without a token not at all.
     */
    @Test
    void adminChangesAndCancelsOverGrpcAreAudited() {
        String admin = "Bearer test-admin-token";
        grpc.stub("authorization", admin).pauseQueue(PauseQueueRequest.newBuilder().setQueue(queue).build());
        io.restassured.response.Response paused = newestAudit("admin");
        assertEquals("queues.pause", path(paused, "entries[0].action"));
        assertEquals(queue, path(paused, "entries[0].scope.name"));
        assertEquals("grpc", path(paused, "entries[0].scope.binding"));
        assertEquals("api", path(paused, "entries[0].via"));
        assertEquals("ok", path(paused, "entries[0].outcome"));

        assertStatus(Status.Code.PERMISSION_DENIED, "permission_denied", () -> grpc.stub("authorization",
                "Bearer " + READONLY).resumeQueue(ResumeQueueRequest.newBuilder().setQueue(queue).build()));
        io.restassured.response.Response refused = newestAudit("dashboard");
        assertEquals("queues.resume", path(refused, "entries[0].action"));
        assertEquals("refused", path(refused, "entries[0].outcome"));
        assertEquals(403, (int) path(refused, "entries[0].status"));

        String id = grpc.stub("authorization", "Bearer " + PRODUCER).enqueue(push()).getJob().getId();
        grpc.stub("authorization", admin).cancelJob(CancelJobRequest.newBuilder().setJobId(id).build());
        io.restassured.response.Response cancelled = newestAudit("admin");
        assertEquals("jobs.cancel", path(cancelled, "entries[0].action"));
        assertEquals(id, path(cancelled, "entries[0].scope.id"));
        assertEquals(1, (int) path(cancelled, "entries[0].jobs"));

        String before = path(newestAudit("admin"), "entries[0].id");
        assertStatus(Status.Code.UNAUTHENTICATED, "unauthenticated",
                () -> grpc.stub().resumeQueue(ResumeQueueRequest.newBuilder().setQueue(queue).build()));
        assertEquals(before, (String) path(newestAudit("admin"), "entries[0].id"), "recorded without a token");
    }
}
