package dev.steadfast.http;

import dev.steadfast.domain.TenantId;
import dev.steadfast.domain.TraceContext;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.http.HttpServerRequest;
import org.jboss.logging.MDC;

/**
 * What a request lends to the log lines written while it is handled and to the jobs it creates: its request id
 * ({@code request_id} in the MDC) and, when it carries a valid W3C {@code traceparent} header, the trace it belongs
 * to ({@code trace_id} and {@code span_id} in the MDC, and the {@link TraceContext} that PUSH, batch, bulk and
 * workflow creation store into a job's {@code meta} when the job's own meta has no {@code traceparent}).
 *
 * <p>Both live on the request's Vert.x duplicated context (Quarkus keeps the MDC there, not in a thread local), so
 * they follow the request across asynchronous hops and never leak into another request. An invalid
 * {@code traceparent} is ignored, as W3C asks of a receiver. The {@code X-OJS-Tenant} header is kept the same way,
 * unchecked, for PUSH, batch, FETCH and the listings (ojs-multi-tenancy.md 5.3).
 */
public final class RequestContext {

    public static final String TRACEPARENT = "traceparent";
    public static final String TRACESTATE = "tracestate";
    private static final String TRACE_KEY = "steadfast.trace-context";
    private static final String TENANT_KEY = "steadfast.tenant";

    private RequestContext() {
    }

    /** Called once per request, before any resource runs. */
    static void begin(HttpServerRequest req, String requestId) {
        if (!VertxContext.isOnDuplicatedContext()) {
            return; // not a request's own context: writing would reach other requests
        }
        MDC.put("request_id", requestId);
        String tenant = req.getHeader(TenantId.HEADER);
        if (tenant != null) {
            ContextLocals.put(TENANT_KEY, tenant); // as sent: checked where it is used (domain.TenantId)
        }
        String parent = req.getHeader(TRACEPARENT);
        if (parent == null) {
            return;
        }
        TraceContext trace = TraceContext.parse(parent, req.getHeader(TRACESTATE));
        if (trace != null) {
            MDC.put("trace_id", trace.traceId());
            MDC.put("span_id", trace.spanId());
            ContextLocals.put(TRACE_KEY, trace);
        }
    }

    /** The trace context of the request being handled; null when it sent none (or an invalid one). */
    public static TraceContext trace() {
        return VertxContext.isOnDuplicatedContext() ? ContextLocals.<TraceContext>get(TRACE_KEY).orElse(null) : null;
    }

    /** The X-OJS-Tenant header of the request being handled, unchecked; null when it sent none. */
    public static String tenantHeader() {
        return VertxContext.isOnDuplicatedContext() ? ContextLocals.<String>get(TENANT_KEY).orElse(null) : null;
    }
}
