package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.TraceContext;
import dev.steadfast.http.ApiAccess;
import dev.steadfast.http.ApiAuth;
import dev.steadfast.http.ApiTokenIdentities;
import dev.steadfast.http.ApiTokens;
import dev.steadfast.http.HttpConfig;
import dev.steadfast.http.HttpFrame;
import dev.steadfast.operations.Manifest;
import io.grpc.Context;
import io.grpc.Contexts;
import com.google.protobuf.MessageLite;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;

/**
 * What every gRPC call gets before the service sees it (ojs-grpc-binding.md 9 and 11), as http.HttpFrame and
 * http.ApiAuth do for HTTP: a request id (the client's {@code x-ojs-request-id} when sane, else a new one) echoed
 * in the response metadata with {@code x-ojs-server-version} and {@code x-ojs-conformance-level}; the W3C
 * {@code traceparent}/{@code tracestate} read for PUSH to copy into the job's meta; and the API token, from
 * {@code authorization: Bearer <token>} (or {@code x-ojs-api-key: <token>}), checked against the same tokens
 * ({@link ApiTokenIdentities}) and the same role matrix ({@link ApiAccess}) as the HTTP route each RPC stands for
 * ({@link #ROUTES}). No token, a malformed one or an unknown one: UNAUTHENTICATED; a token without a role the
 * route allows: PERMISSION_DENIED; both with the binding's ErrorInfo. Manifest and Health are public, as their
 * HTTP routes are. With {@code steadfast.auth.enabled=false} every call passes.
 */
@ApplicationScoped
public class GrpcAccess implements ServerInterceptor {

    static final Context.Key<String> REQUEST_ID = Context.key("steadfast.request-id");
    static final Context.Key<TraceContext> TRACE = Context.key("steadfast.trace");
    static final Metadata.Key<String> REQUEST_ID_KEY = key("x-ojs-request-id");
    static final Metadata.Key<String> SERVER_VERSION = key("x-ojs-server-version");
    static final Metadata.Key<String> CONFORMANCE_LEVEL = key("x-ojs-conformance-level");
    static final Metadata.Key<String> AUTHORIZATION = key("authorization");
    static final Metadata.Key<String> API_KEY = key("x-ojs-api-key");
    static final Metadata.Key<String> TRACEPARENT = key("traceparent");
    static final Metadata.Key<String> TRACESTATE = key("tracestate");

    private static final String OJS = "ojs.v1.OJSService/";

    /**
     * The HTTP route each RPC stands for (ojs-grpc-binding.md 4), by full method name: its roles are that route's
     * ({@link ApiAccess}). Any other method is an admin's.
     */
    static final Map<String, String[]> ROUTES = Map.ofEntries(
            Map.entry(OJS + "Manifest", route("GET", "/ojs/manifest")),
            Map.entry(OJS + "Health", route("GET", "/ojs/v1/health")),
            Map.entry(OJS + "Enqueue", route("POST", "/ojs/v1/jobs")),
            Map.entry(OJS + "EnqueueBatch", route("POST", "/ojs/v1/jobs/batch")),
            Map.entry(OJS + "GetJob", route("GET", "/ojs/v1/jobs/{id}")),
            Map.entry(OJS + "CancelJob", route("DELETE", "/ojs/v1/jobs/{id}")),
            Map.entry(OJS + "Fetch", route("POST", "/ojs/v1/workers/fetch")),
            Map.entry(OJS + "Ack", route("POST", "/ojs/v1/workers/ack")),
            Map.entry(OJS + "Nack", route("POST", "/ojs/v1/workers/nack")),
            Map.entry(OJS + "Heartbeat", route("POST", "/ojs/v1/workers/heartbeat")),
            Map.entry(OJS + "StreamJobs", route("POST", "/ojs/v1/workers/fetch")),
            Map.entry(OJS + "StreamEvents", route("GET", "/ojs/v1/events/stream")),
            Map.entry(OJS + "ListQueues", route("GET", "/ojs/v1/queues")),
            Map.entry(OJS + "QueueStats", route("GET", "/ojs/v1/queues/{name}/stats")),
            Map.entry(OJS + "PauseQueue", route("POST", "/ojs/v1/queues/{name}/pause")),
            Map.entry(OJS + "ResumeQueue", route("POST", "/ojs/v1/queues/{name}/resume")),
            Map.entry(OJS + "ListDeadLetter", route("GET", "/ojs/v1/dead-letter")),
            Map.entry(OJS + "RetryDeadLetter", route("POST", "/ojs/v1/dead-letter/{id}/retry")),
            Map.entry(OJS + "DeleteDeadLetter", route("DELETE", "/ojs/v1/dead-letter/{id}")),
            Map.entry(OJS + "RegisterCron", route("POST", "/ojs/v1/cron")),
            Map.entry(OJS + "UnregisterCron", route("DELETE", "/ojs/v1/cron/{name}")),
            Map.entry(OJS + "ListCron", route("GET", "/ojs/v1/cron")),
            Map.entry(OJS + "CreateWorkflow", route("POST", "/ojs/v1/workflows")),
            Map.entry(OJS + "GetWorkflow", route("GET", "/ojs/v1/workflows/{id}")),
            Map.entry(OJS + "CancelWorkflow", route("DELETE", "/ojs/v1/workflows/{id}")),
            // the standard gRPC health service answers like GET /ojs/v1/health (public: load balancers probe it)
            Map.entry("grpc.health.v1.Health/Check", route("GET", "/ojs/v1/health")),
            Map.entry("grpc.health.v1.Health/Watch", route("GET", "/ojs/v1/health")),
            // server reflection describes the service as the public manifest does
            Map.entry("grpc.reflection.v1.ServerReflection/ServerReflectionInfo", route("GET", "/ojs/manifest")),
            Map.entry("grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo", route("GET", "/ojs/manifest")));

    private final ApiAuth auth;
    private final ApiTokenIdentities identities;
    private final ObjectMapper json;
    private final String version;
    private final String level;
    private final long maxMessageBytes;

    public GrpcAccess(ApiAuth auth, ApiTokenIdentities identities, ObjectMapper json, Manifest manifest,
                      HttpConfig http) {
        this.maxMessageBytes = http.maxBodyBytes();
        this.auth = auth;
        this.identities = identities;
        this.json = json;
        this.version = manifest.body().implementation().name() + "/" + manifest.body().implementation().version();
        this.level = Integer.toString(manifest.body().conformanceLevel());
    }

    private static Metadata.Key<String> key(String name) {
        return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    }

    private static String[] route(String method, String path) {
        return new String[] {method, path};
    }

    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
                                                       ServerCallHandler<Q, A> next) {
        String id = HttpFrame.requestId(headers.get(REQUEST_ID_KEY));
        ServerCall<Q, A> answered = new Answered<>(call, id, version, level);
        String parent = headers.get(TRACEPARENT);
        TraceContext trace = parent == null ? null : TraceContext.parse(parent, headers.get(TRACESTATE));
        Context context = Context.current().withValues(REQUEST_ID, id, TRACE, trace);
        StatusRuntimeException refused = refusal(call.getMethodDescriptor().getFullMethodName(), headers, id);
        if (refused != null) {
            answered.close(refused.getStatus(), refused.getTrailers());
            return new ServerCall.Listener<>() {
            };
        }
        return new Limited<>(Contexts.interceptCall(context, answered, headers, next), answered, id);
    }

    /**
     * Refuses a request message over the request body limit ({@code steadfast.http.max-body-bytes}) as an HTTP body
     * over it is refused: {@code payload_too_large} with {@code limit_bytes} and {@code received_bytes}, here
     * INVALID_ARGUMENT with the binding's ErrorInfo; the service never sees the message.
     */
    private final class Limited<Q, A> extends ForwardingServerCallListener.SimpleForwardingServerCallListener<Q> {

        private final ServerCall<Q, A> call;
        private final String requestId;
        private boolean refused;

        Limited(ServerCall.Listener<Q> listener, ServerCall<Q, A> call, String requestId) {
            super(listener);
            this.call = call;
            this.requestId = requestId;
        }

        @Override
        public void onMessage(Q message) {
            int size = message instanceof MessageLite m ? m.getSerializedSize() : 0;
            if (size > maxMessageBytes && !refused) {
                refused = true;
                StatusRuntimeException e = GrpcErrors.of(ErrorCode.PAYLOAD_TOO_LARGE, "The request message is "
                        + size + " bytes; the limit is " + maxMessageBytes + ".",
                        Map.of("limit_bytes", maxMessageBytes, "received_bytes", size), requestId, json);
                call.close(e.getStatus(), e.getTrailers());
            }
            if (!refused) {
                super.onMessage(message);
            }
        }

        @Override
        public void onHalfClose() {
            if (!refused) {
                super.onHalfClose();
            }
        }
    }

    /** Why the caller may not make this call, or null when it may. */
    private StatusRuntimeException refusal(String method, Metadata headers, String requestId) {
        String[] route = ROUTES.getOrDefault(method, route("POST", "/ojs/v1/admin/grpc/" + method));
        if (!auth.enabled() || ApiAccess.isPublic(route[0], route[1])) {
            return null;
        }
        String header = headers.get(AUTHORIZATION);
        String token = header != null && !header.isBlank() ? ApiAuth.bearer(header) : headers.get(API_KEY);
        if (token == null || token.isBlank()) {
            return GrpcErrors.of(ErrorCode.UNAUTHENTICATED, header == null || header.isBlank()
                    ? "This RPC requires a token: send the metadata authorization: Bearer <token>."
                    : "The authorization metadata must be 'Bearer <token>'.", Map.of("scheme", "Bearer"), requestId,
                    json);
        }
        ApiTokens.Entry who = identities.identify(token.trim());
        if (who == null) {
            return GrpcErrors.of(ErrorCode.UNAUTHENTICATED, "The token is not valid.", Map.of("scheme", "Bearer"),
                    requestId, json);
        }
        Set<ApiAccess.Role> allowed = ApiAccess.allowed(route[0], route[1]);
        for (ApiAccess.Role r : who.roles()) {
            if (allowed.contains(r)) {
                return null;
            }
        }
        return GrpcErrors.of(ErrorCode.PERMISSION_DENIED, "The token's roles do not allow " + method + ".",
                Map.of("required_roles", allowed.stream().map(ApiAccess.Role::wire).sorted().toList()), requestId,
                json);
    }

    /** The call, with the request id and server version in its response headers (or trailers, when it has none). */
    private static final class Answered<Q, A> extends ForwardingServerCall.SimpleForwardingServerCall<Q, A> {

        private final String id;
        private final String version;
        private final String level;
        private boolean headersSent;

        Answered(ServerCall<Q, A> call, String id, String version, String level) {
            super(call);
            this.id = id;
            this.version = version;
            this.level = level;
        }

        private void stamp(Metadata m) {
            m.put(REQUEST_ID_KEY, id);
            m.put(SERVER_VERSION, version);
            m.put(CONFORMANCE_LEVEL, level);
        }

        @Override
        public void sendHeaders(Metadata headers) {
            stamp(headers);
            headersSent = true;
            super.sendHeaders(headers);
        }

        @Override
        public void close(Status status, Metadata trailers) {
            if (!headersSent) {
                stamp(trailers);
            }
            super.close(status, trailers);
        }
    }
}
