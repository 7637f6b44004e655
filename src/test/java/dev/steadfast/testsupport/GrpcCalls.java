package dev.steadfast.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.MetadataUtils;
import io.restassured.RestAssured;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.function.Executable;
import org.openjobspec.ojs.v1.OJSServiceGrpc;

/**
 * A grpc-java client of the server under test (the stubs generated from src/main/proto), on the HTTP port the test
 * server listens on (gRPC shares it): blocking and asynchronous stubs with chosen request metadata (grpc-stub's
 * MetadataUtils), the response metadata of the last blocking call, and the binding's error checks (status code,
 * ErrorInfo domain and reason).
 */
public final class GrpcCalls implements AutoCloseable {

    private final ManagedChannel channel;
    private final AtomicReference<Metadata> headers = new AtomicReference<>();
    private final AtomicReference<Metadata> trailers = new AtomicReference<>();

    public GrpcCalls() {
        this(RestAssured.port, InsecureChannelCredentials.create());
    }

    /** A client of port {@code port} of localhost with {@code credentials} (TLS, or plaintext h2c). */
    public GrpcCalls(int port, io.grpc.ChannelCredentials credentials) {
        channel = Grpc.newChannelBuilderForAddress("localhost", port, credentials).build();
    }

    public static Metadata.Key<String> key(String name) {
        return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    }

    /** A blocking stub sending {@code metadata} (name, value pairs) with every call, 10 s deadline per call. */
    /** The channel, for the services other than OJS's (health, reflection). */
    public io.grpc.Channel channel() {
        return channel;
    }

    public OJSServiceGrpc.OJSServiceBlockingStub stub(String... metadata) {
        Metadata m = new Metadata();
        for (int i = 0; i < metadata.length; i += 2) {
            m.put(key(metadata[i]), metadata[i + 1]);
        }
        return OJSServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(m),
                MetadataUtils.newCaptureMetadataInterceptor(headers, trailers)).withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    /** An asynchronous stub (for the streams) sending {@code metadata} (name, value pairs) with every call. */
    public OJSServiceGrpc.OJSServiceStub async(String... metadata) {
        Metadata m = new Metadata();
        for (int i = 0; i < metadata.length; i += 2) {
            m.put(key(metadata[i]), metadata[i + 1]);
        }
        return OJSServiceGrpc.newStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(m));
    }

    /** The response headers of the last call made through a {@link #stub}, or its trailers when it had none. */
    public Metadata lastHeaders() {
        Metadata h = headers.get();
        return h != null ? h : trailers.get();
    }

    /** Runs {@code call}, which must fail with {@code code}; its ErrorInfo must say openjobspec.org and {@code reason}. */
    public static ErrorInfo assertStatus(Status.Code code, String reason, Executable call) {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call);
        assertEquals(code, e.getStatus().getCode(), "status; " + e.getStatus().getDescription());
        com.google.rpc.Status rpc = StatusProto.fromThrowable(e);
        if (rpc == null || rpc.getDetailsCount() == 0) {
            throw new AssertionError("no google.rpc.Status details: " + e);
        }
        try {
            ErrorInfo info = rpc.getDetails(0).unpack(ErrorInfo.class);
            assertEquals("openjobspec.org", info.getDomain());
            assertEquals(reason, info.getReason(), "reason; metadata " + info.getMetadataMap());
            return info;
        } catch (InvalidProtocolBufferException x) {
            throw new AssertionError("the first detail is not an ErrorInfo: " + rpc, x);
        }
    }

    public static Map<String, String> metadata(ErrorInfo info) {
        return info.getMetadataMap();
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
