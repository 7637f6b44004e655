package dev.steadfast.http;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobIds;
import dev.steadfast.store.DatabaseFaults;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * What every HTTP exchange gets before and after the resources see it (ojs-http-binding.md sections 3.2, 4,
 * 6.5, 19): a request id (the client's X-Request-Id when it is sane, else {@code req_<UUIDv7>}) echoed on every
 * response; {@code OJS-Version: 1.0} and the {@code application/openjobspec+json} content type on every /ojs
 * response; and, before any resource runs, the refusals that need no resource: an unsupported OJS-Version (422),
 * a body with another content type (400) and a body over the size limit (413), each as an OJS error envelope.
 * Paths no resource serves get a 404 envelope too (the console's HTML error page under /admin).
 */
@ApplicationScoped
public class HttpFrame {

    private static final Logger LOG = Logger.getLogger(HttpFrame.class);
    public static final String OJS_MEDIA_TYPE = "application/openjobspec+json";
    public static final String REQUEST_ID = "X-Request-Id";
    private static final Pattern SANE_ID = Pattern.compile("^[A-Za-z0-9._:\\-]{1,200}$");

    private final long maxBody;
    private final ConsoleErrorPage console;

    public HttpFrame(HttpConfig config, ConsoleErrorPage console) {
        this.maxBody = config.maxBodyBytes();
        this.console = console;
        Body.maxBytes = maxBody;
    }

    void install(@Observes Router router) {
        router.route().order(-1000).handler(this::frame);
        // Requests the router itself refuses before any route runs (a path it cannot decode) and failures no
        // resource mapped: the OJS envelope under /ojs instead of a bare status.
        for (int status : new int[] {400, 404, 405, 413, 414, 415, 431, 500}) {
            router.errorHandler(status, this::failed);
        }
        router.route().order(-1000).failureHandler(this::failed);
        router.route().order(Integer.MAX_VALUE).handler(rc -> {
            String message = "No resource at " + rc.request().method() + " " + rc.normalizedPath() + ".";
            if (ConsoleErrorPage.isConsole(rc.normalizedPath())) {
                rc.response().setStatusCode(404).putHeader("Content-Type", ConsoleErrorPage.HTML)
                        .end(console.html(404, message));
            } else {
                refuse(rc, ErrorCode.NOT_FOUND, message, Map.of("path", rc.normalizedPath()));
            }
        });
    }

    private void frame(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        String id = requestId(req);
        RequestContext.begin(req, id);
        // the URL's syntax first: the router cannot even normalize a path with a bad escape
        RequestTarget.Refusal bad = RequestTarget.syntax(req.uri(), 1000);
        if (bad != null) {
            if (ConsoleErrorPage.isConsole(req.path())) {
                rc.response().setStatusCode(bad.code().status()).putHeader("Content-Type", ConsoleErrorPage.HTML)
                        .putHeader(REQUEST_ID, id).end(console.html(bad.code().status(), bad.message()));
            } else {
                rc.response().putHeader(REQUEST_ID, id).putHeader("OJS-Version", "1.0");
                refuse(rc, bad.code(), bad.message(), bad.details());
            }
            return;
        }
        boolean ojs = isOjs(rc);
        if (ojs) {
            // Answers are always OJS JSON whatever the client accepts (ojs-http-binding.md 4.3).
            req.headers().remove("Accept");
        }
        rc.addHeadersEndHandler(v -> {
            HttpServerResponse res = rc.response();
            res.headers().set(REQUEST_ID, id);
            if (ojs) {
                res.headers().set("OJS-Version", "1.0");
                String ct = res.headers().get("Content-Type");
                // a resource that declares the OJS type gets the charset appended by RESTEasy: one spelling on the wire
                if (res.getStatusCode() != 204 && (ct == null || ct.startsWith("application/json")
                        || ct.length() != OJS_MEDIA_TYPE.length() && ct.startsWith(OJS_MEDIA_TYPE))) {
                    res.headers().set("Content-Type", OJS_MEDIA_TYPE);
                }
            }
        });
        if (ojs && !admissible(rc, req)) {
            return;
        }
        rc.next();
    }

    private static String requestId(HttpServerRequest req) {
        String id = requestId(req.getHeader(REQUEST_ID));
        req.headers().set(REQUEST_ID, id);
        return id;
    }

    /** The client's request id when it is sane, else a new {@code req_<UUIDv7>} (the gRPC binding's too). */
    public static String requestId(String given) {
        return given != null && SANE_ID.matcher(given).matches() ? given
                : "req_" + JobIds.nextPlain(System.currentTimeMillis());
    }

    private static boolean isOjs(RoutingContext rc) {
        String path = rc.normalizedPath() != null ? rc.normalizedPath() : rc.request().path();
        return path != null && (path.equals("/ojs") || path.startsWith("/ojs/") || path.startsWith("/ojs%"));
    }

    /** A failure or refusal that reached the router without an answer. */
    private void failed(RoutingContext rc) {
        if (rc.response().ended() || rc.response().headWritten()) {
            return;
        }
        String path = rc.request().path();
        String id = requestId(rc.request());
        // a handler that ran before ours (an access log, dev mode) may have failed on a URL it could not decode
        RequestTarget.Refusal bad = RequestTarget.syntax(rc.request().uri(), Integer.MAX_VALUE);
        int status = bad != null ? bad.code().status() : rc.statusCode() < 400 ? 500 : rc.statusCode();
        if (path != null && ConsoleErrorPage.isConsole(path)) {
            rc.response().setStatusCode(status).putHeader("Content-Type", ConsoleErrorPage.HTML).putHeader(REQUEST_ID, id)
                    .end(console.html(status, bad != null ? bad.message() : status == 500
                            ? "Internal server error (request " + id + ")."
                            : "The request could not be processed (HTTP " + status + ")."));
            return;
        }
        rc.response().headers().set(REQUEST_ID, id).set("OJS-Version", "1.0");
        if (bad != null) {
            refuse(rc, bad.code(), bad.message(), bad.details());
            return;
        }
        boolean outage = rc.failure() != null && DatabaseFaults.isTransient(rc.failure());
        ErrorCode code = outage ? ErrorCode.BACKEND_UNAVAILABLE : switch (status) {
            case 404 -> ErrorCode.NOT_FOUND;
            case 405 -> ErrorCode.METHOD_NOT_ALLOWED;
            case 413 -> ErrorCode.PAYLOAD_TOO_LARGE;
            case 414 -> ErrorCode.URI_TOO_LONG;
            case 431 -> ErrorCode.HEADERS_TOO_LARGE;
            case 500 -> ErrorCode.INTERNAL;
            default -> ErrorCode.INVALID_REQUEST;
        };
        if (code == ErrorCode.INTERNAL && rc.failure() != null) {
            LOG.errorf(rc.failure(), "request %s failed", id);
        }
        String message = code == ErrorCode.INTERNAL ? "Internal server error (request " + id + ")."
                : outage ? "The database is unavailable; retry with backoff."
                : status == 400 ? "The request could not be processed: the URL could not be decoded."
                : "The request could not be processed (HTTP " + status + ").";
        refuse(rc, code, message, Map.of());
    }

    /** Applies the refusals that precede every /ojs resource; false when one answered the request. */
    private boolean admissible(RoutingContext rc, HttpServerRequest req) {
        long headerBytes = 0;
        for (Map.Entry<String, String> h : req.headers()) {
            headerBytes += h.getKey().length() + h.getValue().length() + 4;
        }
        RequestTarget.Refusal target = RequestTarget.check(req.method().name(), req.uri(), req.headers().size(),
                headerBytes);
        if (target != null) {
            refuse(rc, target.code(), target.message(), target.details());
            return false;
        }
        String version = req.getHeader("OJS-Version");
        if (version != null && !version.isBlank() && !version.trim().equals("1.0") && !version.trim().equals("1")) {
            refuse(rc, ErrorCode.UNSUPPORTED, "OJS-Version '" + version + "' is not supported; this server speaks 1.0.",
                    Map.of("requested_version", version, "supported_versions", new String[] {"1.0"}));
            return false;
        }
        String length = req.getHeader("Content-Length");
        boolean chunked = "chunked".equalsIgnoreCase(req.getHeader("Transfer-Encoding"));
        long size = parseLength(length);
        if (size > maxBody) {
            refuse(rc, ErrorCode.PAYLOAD_TOO_LARGE, "The request body is " + size + " bytes; the limit is "
                    + maxBody + ".", Map.of("limit_bytes", maxBody, "received_bytes", size));
            return false;
        }
        boolean hasBody = chunked || size > 0;
        if (hasBody) { // on every method: a GET or DELETE with a form or multipart body is refused too
            String ct = req.getHeader("Content-Type");
            String base = ct == null ? "" : ct.split(";", 2)[0].trim().toLowerCase();
            if (!base.equals(OJS_MEDIA_TYPE) && !base.equals("application/json")) {
                refuse(rc, ErrorCode.INVALID_REQUEST, "Request bodies must be sent as " + OJS_MEDIA_TYPE
                        + " (or application/json); got '" + (ct == null ? "no Content-Type" : ct) + "'.",
                        Map.of("field", "Content-Type", "received", ct == null ? "" : ct));
                return false;
            }
        }
        return true;
    }

    private static long parseLength(String length) {
        if (length == null) {
            return 0;
        }
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static void refuse(RoutingContext rc, ErrorCode code, String message, Map<String, Object> details) {
        String id = rc.request().getHeader(REQUEST_ID);
        rc.response().setStatusCode(code.status()).putHeader("Content-Type", OJS_MEDIA_TYPE)
                .end(ErrorEnvelope.json(code, message, details, id));
    }
}
