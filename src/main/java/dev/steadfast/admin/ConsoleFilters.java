package dev.steadfast.admin;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Runs around every console request: reads the flash message left by the previous action, and sets the
 * console's response headers: no caching, a strict Content-Security-Policy (scripts and styles only from the
 * console's own static files, so even injected markup could not run), no framing, no MIME sniffing.
 */
public class ConsoleFilters {

    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private final ConsoleRequest request;

    public ConsoleFilters(ConsoleRequest request) {
        this.request = request;
    }

    @ServerRequestFilter
    public void readFlash(ContainerRequestContext ctx) {
        if (!ConsoleErrors.isConsole(ctx.getUriInfo().getPath())) {
            return;
        }
        Cookie flash = ctx.getCookies().get(Flash.COOKIE);
        if (flash != null) {
            request.flash(Flash.read(flash.getValue()));
        }
    }

    @ServerResponseFilter
    public void headers(ContainerRequestContext req, ContainerResponseContext res) {
        if (!ConsoleErrors.isConsole(req.getUriInfo().getPath())) {
            return;
        }
        MultivaluedMap<String, Object> h = res.getHeaders();
        h.putSingle("Content-Security-Policy", CSP);
        h.putSingle("X-Content-Type-Options", "nosniff");
        h.putSingle("X-Frame-Options", "DENY");
        h.putSingle("Referrer-Policy", "same-origin");
        h.putSingle(HttpHeaders.CACHE_CONTROL, "no-store");
        if ("GET".equals(req.getMethod()) && req.getCookies().containsKey(Flash.COOKIE)
                && !req.getUriInfo().getPath().endsWith("/live")) {
            h.add(HttpHeaders.SET_COOKIE, Flash.COOKIE + "=; Path=/admin; Max-Age=0; HttpOnly; SameSite=Strict");
        }
    }
}
