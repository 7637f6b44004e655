package dev.steadfast.http;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.store.DatabaseFaults;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place failures become HTTP answers: an {@link OjsException} becomes its envelope; JAX-RS routing
 * failures become 404 / 405 / 400 envelopes (a 405 with the path's methods in {@code Allow} and
 * {@code details.allowed}, from {@link ResourceMethods}); a passing database fault (restart, lost connection, pool
 * exhaustion, statement timeout: {@link DatabaseFaults}) becomes 503 backend_error, retryable; anything else is
 * logged with its request id and answered 500 internal_error, without a stack trace on the wire. Under /admin the
 * same status and message are rendered as the console's HTML error page instead of the envelope.
 */
class ErrorMapper {

    private static final Logger LOG = Logger.getLogger(ErrorMapper.class);

    private final ConsoleErrorPage console;
    private final ResourceMethods methods;
    private static final AtomicLong unavailable = new AtomicLong();
    private static final AtomicLong lastUnavailableLog = new AtomicLong();

    public ErrorMapper(ConsoleErrorPage console, ResourceMethods methods) {
        this.console = console;
        this.methods = methods;
    }

    @ServerExceptionMapper
    public Response ojs(OjsException e, HttpHeaders headers, UriInfo uri) {
        return envelope(e.code(), e.getMessage(), e.details(), headers, uri);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, HttpHeaders headers, UriInfo uri) {
        if (e instanceof NotFoundException) {
            return envelope(ErrorCode.NOT_FOUND, "No such resource.", Map.of(), headers, uri);
        }
        if (e instanceof NotAllowedException) {
            List<String> allowed = methods.allowed(uri.getPath());
            Response r = envelope(ErrorCode.METHOD_NOT_ALLOWED, allowed.isEmpty()
                    ? "This method is not allowed on this path."
                    : "This path takes " + String.join(", ", allowed) + ", not this method.",
                    allowed.isEmpty() ? Map.of() : Map.of("allowed", allowed), headers, uri);
            return allowed.isEmpty() ? r
                    : Response.fromResponse(r).header(HttpHeaders.ALLOW, String.join(", ", allowed)).build();
        }
        if (e instanceof NotSupportedException) {
            return envelope(ErrorCode.INVALID_REQUEST, "Unsupported Content-Type.", Map.of(), headers, uri);
        }
        int status = e.getResponse().getStatus();
        if (status >= 400 && status < 500) {
            return envelope(ErrorCode.INVALID_REQUEST, "The request could not be processed (HTTP " + status + ").",
                    Map.of(), headers, uri);
        }
        return unexpected(e, headers, uri);
    }

    @ServerExceptionMapper
    public Response any(Throwable e, HttpHeaders headers, UriInfo uri) {
        if (e instanceof IOException && "Request too large".equals(e.getMessage())) {
            // the HTTP layer's own backstop (quarkus.http.limits.max-body-size) tripped on a chunked body
            return envelope(ErrorCode.PAYLOAD_TOO_LARGE, "The request body is larger than the server accepts.",
                    Map.of(), headers, uri);
        }
        if (DatabaseFaults.isTransient(e)) {
            long now = System.currentTimeMillis();
            unavailable.incrementAndGet();
            long last = lastUnavailableLog.get();
            // one line per 10 s during an outage, not one per request
            if (now - last >= 10_000 && lastUnavailableLog.compareAndSet(last, now)) {
                LOG.warnf("request %s: database unavailable: %s (%d requests answered 503 since the last such line)",
                        headers.getHeaderString(HttpFrame.REQUEST_ID), DatabaseFaults.describe(e),
                        unavailable.getAndSet(0));
            }
            return envelope(ErrorCode.BACKEND_UNAVAILABLE, "The database is unavailable (restarting, unreachable,"
                    + " out of connections or too slow); retry with backoff.", Map.of(), headers, uri);
        }
        return unexpected(e, headers, uri);
    }

    private Response unexpected(Throwable e, HttpHeaders headers, UriInfo uri) {
        String id = headers.getHeaderString(HttpFrame.REQUEST_ID);
        LOG.errorf(e, "request %s failed", id);
        return envelope(ErrorCode.INTERNAL, "Internal server error (request " + id + ").", Map.of(), headers, uri);
    }

    private Response envelope(ErrorCode code, String message, Map<String, Object> details, HttpHeaders h,
                              UriInfo uri) {
        if (ConsoleErrorPage.isConsole(uri.getPath())) {
            return console.response(code.status(), message);
        }
        Response.ResponseBuilder r = Response.status(code.status()).type(HttpFrame.OJS_MEDIA_TYPE)
                .entity(ErrorEnvelope.json(code, message, details, h.getHeaderString(HttpFrame.REQUEST_ID)));
        if (code.status() == 429 || code.status() == 503) {
            // ojs-errors.md ERR-006: every 429 and 503 says when to come back
            Object after = details.get("retry_after_seconds");
            r.header("Retry-After", after == null ? 1 : after);
        }
        if (code == ErrorCode.QUEUE_FULL) {
            // ojs-backpressure.md 6: how full the queue is
            r.header("X-OJS-Queue-Depth", details.get("depth")).header("X-OJS-Queue-Bound", details.get("bound"));
        }
        return r.build();
    }
}
