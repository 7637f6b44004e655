package dev.steadfast.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.restassured.RestAssured;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.function.Executable;
import org.openjobspec.ojs.v1.OJSServiceGrpc;

/**
 * A grpc-java client of the server under test (the stubs generated from src/main/proto), on the HTTP port the test
 * server listens on (gRPC shares it): blocking stubs with chosen request metadata, the response metadata of the
 * last call, and the binding's error checks (status code, ErrorInfo domain and reason).
 */
public final class GrpcCalls implements AutoCloseable {

    private final ManagedChannel channel;
    /** Headers (or, for an answer with none, trailers) of the last call made through {@link #stub}. */
    public final AtomicReference<Metadata> lastHeaders = new AtomicReference<>();

    public GrpcCalls() {
        channel = Grpc.newChannelBuilderForAddress("localhost", RestAssured.port, InsecureChannelCredentials.create())
                .build();
    }

    public static Metadata.Key<String> key(String name) {
        return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    }

    /** A blocking stub sending {@code metadata} (name, value pairs) with every call, 10 s deadline per call. */
    public OJSServiceGrpc.OJSServiceBlockingStub stub(String... metadata) {
        Metadata m = new Metadata();
        for (int i = 0; i < metadata.length; i += 2) {
            m.put(key(metadata[i]), metadata[i + 1]);
        }
        return OJSServiceGrpc.newBlockingStub(channel).withInterceptors(new Recording(m))
                .withDeadlineAfter(10, TimeUnit.SECONDS);
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

    /** Sends the chosen metadata and keeps what the server answered in {@link #lastHeaders}. */
    private final class Recording implements ClientInterceptor {

        private final Metadata extra;

        Recording(Metadata extra) {
            this.extra = extra;
        }

        @Override
        public <Q, A> ClientCall<Q, A> interceptCall(MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
            return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                @Override
                public void start(Listener<A> listener, Metadata headers) {
                    headers.merge(extra);
                    super.start(new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                        private boolean sawHeaders;

                        @Override
                        public void onHeaders(Metadata h) {
                            sawHeaders = true;
                            lastHeaders.set(h);
                            super.onHeaders(h);
                        }

                        @Override
                        public void onClose(Status status, Metadata trailers) {
                            if (!sawHeaders) {
                                lastHeaders.set(trailers);
                            }
                            super.onClose(status, trailers);
                        }
                    }, headers);
                }
            };
        }
    }
}
