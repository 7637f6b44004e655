package dev.steadfast.grpc;

import static dev.steadfast.testsupport.GrpcCalls.assertStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steadfast.testsupport.GrpcCalls;
import dev.steadfast.testsupport.Profiles;
import dev.steadfast.testsupport.TestTls;
import io.grpc.InsecureChannelCredentials;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import org.junit.jupiter.api.Test;
import org.openjobspec.ojs.v1.EnqueueOptions;
import org.openjobspec.ojs.v1.EnqueueRequest;
import org.openjobspec.ojs.v1.GetJobRequest;

/**
 * With TLS configured (the TLS registry's default key store), gRPC is served on the HTTPS port as HTTP/2 negotiated
 * by ALPN, with the same bearer tokens and roles as in clear (GrpcAuthTest shares this server); a plaintext client
 * cannot speak to the TLS port.
 */
@QuarkusTest
@TestProfile(Profiles.Tokens.class)
class GrpcTlsTest {

    @TestHTTPResource(value = "/", tls = true)
    URL https;

    private GrpcCalls overTls() throws Exception {
        return new GrpcCalls(https.getPort(),
                TlsChannelCredentials.newBuilder().trustManager(TestTls.certificate().toFile()).build());
    }

    @Test
    void theBindingAnswersOverTlsWithTheSameTokensAndRoles() throws Exception {
        try (GrpcCalls grpc = overTls()) {
            EnqueueRequest push = EnqueueRequest.newBuilder().setType("tls.check")
                    .setOptions(EnqueueOptions.newBuilder().setQueue("grpc-tls")).build();
            String id = grpc.stub("authorization", "Bearer " + GrpcAuthTest.PRODUCER).enqueue(push).getJob().getId();
            assertEquals(id, grpc.stub("authorization", "Bearer " + GrpcAuthTest.READONLY)
                    .getJob(GetJobRequest.newBuilder().setJobId(id).build()).getJob().getId());
            assertStatus(Status.Code.UNAUTHENTICATED, "unauthenticated", () -> grpc.stub().enqueue(push));
            assertEquals(HealthCheckResponse.ServingStatus.SERVING, HealthGrpc.newBlockingStub(grpc.channel())
                    .check(HealthCheckRequest.getDefaultInstance()).getStatus());
        }
    }

    @Test
    void aPlaintextClientCannotSpeakToTheTlsPort() throws Exception {
        try (GrpcCalls plain = new GrpcCalls(https.getPort(), InsecureChannelCredentials.create())) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> HealthGrpc
                    .newBlockingStub(plain.channel()).withDeadlineAfter(5, java.util.concurrent.TimeUnit.SECONDS)
                    .check(HealthCheckRequest.getDefaultInstance()));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
        }
    }
}
