package dev.steadfast.grpc;

import dev.steadfast.http.HttpConfig;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.InternalServer;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.grpc.MetricCollectingServerInterceptor;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerOptions;
import io.vertx.grpc.server.GrpcServiceBridge;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjobspec.ojs.v1.OJSServiceGrpc;

/**
 * The gRPC server: Vert.x gRPC on the HTTP server's own router, so gRPC shares the HTTP port, its TLS and its
 * event loops (docs/decisions/grpc-on-the-http-port.md). A request whose content type is {@code application/grpc...}
 * goes to the gRPC server once {@code http.HttpFrame} has given it its request id; any other goes on to the HTTP
 * resources. Served: {@code ojs.v1.OJSService} ({@link OjsGrpcService}), the standard health service (SERVING until
 * shutdown begins) and server reflection (v1 and v1alpha), each behind {@link GrpcAccess} and Micrometer's gRPC
 * server metrics ({@code grpc.server.processing.duration} by service, method and status code, and the message
 * counters). A message over the request body
 * limit ({@code steadfast.http.max-body-bytes}) is refused by {@link GrpcAccess} with the binding's ErrorInfo; one
 * over {@value #TRANSPORT_LIMIT_FACTOR} times that limit is refused unread by the gRPC server itself
 * (RESOURCE_EXHAUSTED, no ErrorInfo), so no client makes the server hold more.
 */
@ApplicationScoped
class GrpcServing {

    /** After http.HttpFrame (-1000), before every HTTP resource. */
    static final int ROUTE_ORDER = -999;
    static final int TRANSPORT_LIMIT_FACTOR = 4;

    private final HealthStatusManager health = new HealthStatusManager();
    private final List<ServerServiceDefinition> services;
    private final GrpcAccess access;
    private final MetricCollectingServerInterceptor metrics;
    private final long maxMessageBytes;

    GrpcServing(OjsGrpcService ojs, GrpcAccess access, HttpConfig http, MeterRegistry registry) {
        this.access = access;
        this.metrics = new MetricCollectingServerInterceptor(registry);
        this.maxMessageBytes = TRANSPORT_LIMIT_FACTOR * http.maxBodyBytes();
        this.services = List.of(ojs.bindService(), health.getHealthService().bindService());
        services.forEach(metrics::preregisterService);
        health.setStatus(OJSServiceGrpc.SERVICE_NAME, ServingStatus.SERVING);
    }

    void mount(@Observes Router router, Vertx vertx) {
        GrpcServer server = GrpcServer.server(vertx, new GrpcServerOptions().setMaxMessageSize(maxMessageBytes));
        for (ServerServiceDefinition service : services) {
            bind(server, service, access, metrics);
        }
        // reflection finds what it describes through the serving Server in the call's context, which grpc-java's
        // own server puts there; this one is not that server, so reflection gets a view of the services above
        ServerInterceptor served = new ServedServices(services);
        bind(server, ProtoReflectionServiceV1.newInstance().bindService(), served, access, metrics);
        @SuppressWarnings("deprecation")
        ServerServiceDefinition v1alpha = ProtoReflectionService.newInstance().bindService();
        bind(server, v1alpha, served, access, metrics);
        router.route().order(ROUTE_ORDER).handler(rc -> {
            String type = rc.request().getHeader("Content-Type");
            if (type != null && type.startsWith("application/grpc")) {
                server.handle(rc.request());
            } else {
                rc.next();
            }
        });
    }

    /** Health checks answer NOT_SERVING from the moment shutdown begins, so balancers stop sending calls. */
    void shutdown(@Observes ShutdownEvent e) {
        health.enterTerminalState();
    }

    private static void bind(GrpcServer server, ServerServiceDefinition service, ServerInterceptor... interceptors) {
        // ServerInterceptors.intercept runs the last interceptor first: metrics see every call, refused ones too, then
        // access checks it before anything else
        GrpcServiceBridge.bridge(ServerInterceptors.intercept(service, interceptors)).bind(server);
    }

    /** Puts a read-only {@link Server} listing the served services where reflection looks for it. */
    private static final class ServedServices extends Server implements ServerInterceptor {

        private final List<ServerServiceDefinition> services;

        ServedServices(List<ServerServiceDefinition> services) {
            this.services = services;
        }

        @Override
        public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call,
                                                                 Metadata headers,
                                                                 ServerCallHandler<Q, A> next) {
            return Contexts.interceptCall(Context.current().withValue(InternalServer.SERVER_CONTEXT_KEY, this), call,
                    headers, next);
        }

        @Override
        public List<ServerServiceDefinition> getServices() {
            return services;
        }

        @Override
        public List<ServerServiceDefinition> getImmutableServices() {
            return services;
        }

        @Override
        public List<ServerServiceDefinition> getMutableServices() {
            return List.of();
        }

        @Override
        public Server start() {
            throw new UnsupportedOperationException("a view of the served services");
        }

        @Override
        public Server shutdown() {
            throw new UnsupportedOperationException("a view of the served services");
        }

        @Override
        public Server shutdownNow() {
            throw new UnsupportedOperationException("a view of the served services");
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return false;
        }

        @Override
        public void awaitTermination() {
            throw new UnsupportedOperationException("a view of the served services");
        }
    }
}
