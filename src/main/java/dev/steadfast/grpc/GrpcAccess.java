package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import com.google.protobuf.MessageLite;
import dev.steadfast.audit.AuditEntry;
import dev.steadfast.audit.AuditLog;
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
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

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
class GrpcAccess implements ServerInterceptor {

    static final Context.Key<String> REQUEST_ID = Context.key("steadfast.request-id");
    static final Context.Key<TraceContext> TRACE = Context.key("steadfast.trace");
    /** The call's {@code x-ojs-tenant} metadata as sent (checked where it is used, as the HTTP header is). */
    static final Context.Key<String> TENANT = Context.key("steadfast.tenant");
    static final Metadata.Key<String> REQUEST_ID_KEY = key("x-ojs-request-id");
    static final Metadata.Key<String> SERVER_VERSION = key("x-ojs-server-version");
    static final Metadata.Key<String> CONFORMANCE_LEVEL = key("x-ojs-conformance-level");
    static final Metadata.Key<String> AUTHORIZATION = key("authorization");
    static final Metadata.Key<String> API_KEY = key("x-ojs-api-key");
    static final Metadata.Key<String> TRACEPARENT = key("traceparent");
    static final Metadata.Key<String> TRACESTATE = key("tracestate");
    static final Metadata.Key<String> TENANT_KEY = key("x-ojs-tenant");

    private static final Logger LOG = Logger.getLogger(GrpcAccess.class);
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

    /**
     * The RPCs the audit log records, as it records their HTTP routes (audit.AuditedRequests: the changes only an
     * admin may make, and the cancels): the action is the HTTP route's, the scope the request field the route has
     * as its path parameter, under the parameter's name, plus {@code binding: grpc}.
     */
    record Audited(String action, String field, String scopeKey, boolean oneJob) {
    }

    static final Map<String, Audited> AUDITED = Map.of(
            OJS + "CancelJob", new Audited("jobs.cancel", "job_id", "id", true),
            OJS + "CancelWorkflow", new Audited("workflows.cancel", "workflow_id", "id", false),
            OJS + "PauseQueue", new Audited("queues.pause", "queue", "name", false),
            OJS + "ResumeQueue", new Audited("queues.resume", "queue", "name", false),
            OJS + "RetryDeadLetter", new Audited("dead-letter.retry", "job_id", "id", true),
            OJS + "DeleteDeadLetter", new Audited("dead-letter.delete", "job_id", "id", true),
            OJS + "RegisterCron", new Audited("cron.register", "name", "name", false),
            OJS + "UnregisterCron", new Audited("cron.delete", "name", "name", false));

    private final ApiAuth auth;
    private final ApiTokenIdentities identities;
    private final ObjectMapper json;
    private final String version;
    private final String level;
    private final long maxMessageBytes;
    private final AuditLog audit;

    public GrpcAccess(ApiAuth auth, ApiTokenIdentities identities, ObjectMapper json, Manifest manifest,
                      HttpConfig http, AuditLog audit) {
        this.maxMessageBytes = http.maxBodyBytes();
        this.audit = audit;
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
        Context context = Context.current().withValues(REQUEST_ID, id, TRACE, trace, TENANT, headers.get(TENANT_KEY));
        String method = call.getMethodDescriptor().getFullMethodName();
        String client = client(call);
        Verdict verdict = verdict(method, headers, id, client);
        Audited audited = verdict.actor() == null ? null : AUDITED.get(method);
        ServerCall<Q, A> recorded = audited == null ? answered : new Recorded<>(answered, audited, verdict.actor(),
                client);
        if (verdict.refused() != null) {
            recorded.close(verdict.refused().getStatus(), verdict.refused().getTrailers());
            return new ServerCall.Listener<>() {
            };
        }
        return new Limited<>(Contexts.interceptCall(context, recorded, headers, next), recorded, id);
    }

    private static String client(ServerCall<?, ?> call) {
        SocketAddress remote = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
        return remote instanceof InetSocketAddress a && a.getAddress() != null ? a.getAddress().getHostAddress()
                : null;
    }

    /**
     * An audited call: its entry is written once the answer is known and before it leaves, as an HTTP change's is
     * (a client that saw its change succeed can read its entry at once); when writing fails the answer goes out as
     * it was and the failure is logged.
     */
    private final class Recorded<Q, A> extends ForwardingServerCall.SimpleForwardingServerCall<Q, A> {

        private final Audited audited;
        private final String actor;
        private final String client;
        private final Map<String, Object> scope = new LinkedHashMap<>();

        Recorded(ServerCall<Q, A> call, Audited audited, String actor, String client) {
            super(call);
            this.audited = audited;
            this.actor = actor;
            this.client = client;
            scope.put("binding", "grpc");
        }

        void request(Object message) {
            if (message instanceof Message m) {
                Descriptors.FieldDescriptor f = m.getDescriptorForType().findFieldByName(audited.field());
                Object v = f == null ? null : m.getField(f);
                if (v instanceof String s && !s.isEmpty()) {
                    scope.put(audited.scopeKey(), s);
                }
            }
        }

        @Override
        public void close(Status status, Metadata trailers) {
            int http = httpStatus(status.getCode());
            AuditEntry e = new AuditEntry(actor, "api", audited.action(), scope,
                    audited.oneJob() && http < 400 ? 1L : null, client, http);
            audit.record(e).onFailure().invoke(f -> LOG.errorf(f, "could not write the audit entry of %s: %s",
                    getMethodDescriptor().getFullMethodName(), e)).onFailure().recoverWithNull()
                    .subscribe().with(v -> super.close(status, trailers));
        }
    }

    /** The HTTP status the same answer has over HTTP (an audit entry's {@code status}). */
    static int httpStatus(Status.Code code) {
        return switch (code) {
            case OK -> 200;
            case INVALID_ARGUMENT, OUT_OF_RANGE -> 400;
            case UNAUTHENTICATED -> 401;
            case PERMISSION_DENIED -> 403;
            case NOT_FOUND -> 404;
            case ALREADY_EXISTS, FAILED_PRECONDITION, ABORTED -> 409;
            case RESOURCE_EXHAUSTED -> 429;
            case UNAVAILABLE -> 503;
            default -> 500;
        };
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
                if (call instanceof Recorded<Q, A> r) {
                    r.request(message);
                }
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

    /** Who calls (the token's name, when a token was checked) and why it may not make this call (null: it may). */
    record Verdict(String actor, StatusRuntimeException refused, String reason) {

        static final Verdict PASS = new Verdict(null, null, null);
    }

    private Verdict verdict(String method, Metadata headers, String requestId, String client) {
        Verdict v = judge(method, headers, requestId);
        if (v.refused() != null) {
            // logged like every failed authentication over HTTP (http.ApiAuth: WARN, at most N lines a window)
            ErrorCode code = v.actor() == null ? ErrorCode.UNAUTHENTICATED : ErrorCode.PERMISSION_DENIED;
            auth.logFailure("gRPC " + method, client, code, v.reason());
        }
        return v;
    }

    private Verdict judge(String method, Metadata headers, String requestId) {
        String[] route = ROUTES.getOrDefault(method, route("POST", "/ojs/v1/admin/grpc/" + method));
        if (!auth.enabled() || ApiAccess.isPublic(route[0], route[1])) {
            return Verdict.PASS;
        }
        String header = headers.get(AUTHORIZATION);
        String token = header != null && !header.isBlank() ? ApiAuth.bearer(header) : headers.get(API_KEY);
        if (token == null || token.isBlank()) {
            boolean none = header == null || header.isBlank();
            return new Verdict(null, GrpcErrors.of(ErrorCode.UNAUTHENTICATED, none
                    ? "This RPC requires a token: send the metadata authorization: Bearer <token>."
                    : "The authorization metadata must be 'Bearer <token>'.", Map.of("scheme", "Bearer"), requestId,
                    json), none ? "no authorization metadata" : "authorization is not 'Bearer <token>'");
        }
        ApiTokens.Entry who = identities.identify(token.trim());
        if (who == null) {
            return new Verdict(null, GrpcErrors.of(ErrorCode.UNAUTHENTICATED, "The token is not valid.",
                    Map.of("scheme", "Bearer"), requestId, json), "unknown token");
        }
        Set<ApiAccess.Role> allowed = ApiAccess.allowed(route[0], route[1]);
        for (ApiAccess.Role r : who.roles()) {
            if (allowed.contains(r)) {
                return new Verdict(who.name(), null, null);
            }
        }
        List<String> required = allowed.stream().map(ApiAccess.Role::wire).sorted().toList();
        return new Verdict(who.name(), GrpcErrors.of(ErrorCode.PERMISSION_DENIED, "The token's roles do not allow "
                + method + ".", Map.of("required_roles", required), requestId, json),
                "token '" + who.name() + "' " + who.roles().stream().map(ApiAccess.Role::wire).sorted().toList()
                        + " lacks a role of " + required);
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
