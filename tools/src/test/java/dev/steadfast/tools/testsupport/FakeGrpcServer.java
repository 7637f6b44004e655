package dev.steadfast.tools.testsupport;

import io.grpc.BindableService;
import io.grpc.Grpc;
import io.grpc.InsecureServerCredentials;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A grpc-java server on a free port serving a fake service, recording the {@code authorization} metadata of every
 * call (the string "null" for a call without one), for the tools' gRPC clients to be tested against.
 */
public final class FakeGrpcServer implements AutoCloseable {

    private static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

    /** The authorization metadata of every call, in order. */
    public final Queue<String> authorization = new ConcurrentLinkedQueue<>();
    private final Server server;

    public FakeGrpcServer(BindableService service) throws IOException {
        ServerInterceptor recorder = new ServerInterceptor() {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
                                                               ServerCallHandler<Q, A> next) {
                authorization.add(String.valueOf(headers.get(AUTHORIZATION)));
                return next.startCall(call, headers);
            }
        };
        server = Grpc.newServerBuilderForPort(0, InsecureServerCredentials.create())
                .addService(ServerInterceptors.intercept(service, recorder)).build().start();
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
