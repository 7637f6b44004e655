package dev.steadfast.console;

import dev.steadfast.console.auth.ConsoleAccess;
import dev.steadfast.console.auth.ConsoleAuth;
import dev.steadfast.console.auth.ConsoleRole;
import dev.steadfast.console.auth.ConsoleSessionAuth;
import dev.steadfast.console.auth.LoginPage;
import dev.steadfast.console.auth.Session;
import dev.steadfast.console.auth.SessionCodec;
import dev.steadfast.http.ConsoleErrorPage;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.WithFormRead;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

/**
 * The console's guard, around every /admin request a page resource serves:
 * <ol>
 *   <li>session: reads the signed session cookie (or starts an anonymous one, which still carries a CSRF token);
 *       with login on, a request without a logged-in session is sent to the login page (GET) or refused (403);</li>
 *   <li>CSRF: every POST must carry the session's token in the {@code _csrf} form field, or it is refused (403)
 *       before the resource runs; GET never changes state;</li>
 *   <li>response: the session cookie (HttpOnly, SameSite=Strict, Path=/admin), no caching, a strict
 *       Content-Security-Policy (scripts and styles only from the console's own files), no framing.</li>
 * </ol>
 *
 * <p>Why this is not Quarkus's form authentication and the {@code quarkus-rest-csrf} extension (the API's tokens
 * are Quarkus Security: http.ApiAuth): the CSRF token here belongs to the session, lives inside the signed session
 * cookie and is replaced at login, so a token from before the login (or from another browser) is refused;
 * {@code quarkus-rest-csrf} keeps its token in a cookie of its own, independent of any session and unchanged by a
 * login (its field name could be {@code _csrf}: {@code quarkus.rest-csrf.form-field-name}, so that is not the
 * obstacle), and answers a failed check with a bare 400 where the console answers 403 with its HTML error page. Form
 * authentication posts to its own {@code j_security_check} handler, which answers a wrong password with a redirect
 * to an error page, not the login page again with 401 and the message; it has no per-address throttle of failed
 * logins ({@link ConsoleAuth}); it remembers where to return in a cookie of its own instead of the checked
 * {@code next} field (no open redirect, {@link LoginPage#safe}); and its session cookie is its own encrypted format,
 * so the session could no longer carry the CSRF token, nor be the {@link SessionCodec} format whose key all
 * instances on one database must share ({@link dev.steadfast.console.auth.SessionKeys}). The console without
 * login ({@code steadfast.console.auth-enabled=false}) still needs a session for its CSRF token, which form
 * authentication does not give an anonymous visitor. The pages are {@code @PermitAll} for Quarkus Security: this
 * guard is their security.
 */
class ConsoleFilters {

    static final String SESSION_COOKIE = ConsoleSessionAuth.SESSION_COOKIE;
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private final ConsoleRequest request;
    private final ConsoleAuth auth;
    private final SessionCodec codec;
    private final ConsoleErrors errors;
    private final ConsoleConfig config;
    private final Clock clock;
    private final SecurityIdentity identity;

    public ConsoleFilters(ConsoleRequest request, ConsoleAuth auth, SessionCodec codec, ConsoleErrors errors,
                          ConsoleConfig config, Clock clock, SecurityIdentity identity) {
        this.identity = identity;
        this.request = request;
        this.auth = auth;
        this.codec = codec;
        this.errors = errors;
        this.config = config;
        this.clock = clock;
    }

    @ServerRequestFilter(priority = Priorities.AUTHENTICATION)
    public Response session(ContainerRequestContext ctx) {
        String path = ctx.getUriInfo().getPath();
        if (!ConsoleErrorPage.isConsole(path)) {
            return null;
        }
        Cookie flash = ctx.getCookies().get(Flash.COOKIE);
        if (flash != null) {
            request.flash(Flash.read(flash.getValue()));
        }
        Instant now = clock.instant();
        Cookie c = ctx.getCookies().get(SESSION_COOKIE);
        Session s = c == null ? null : codec.decode(c.getValue(), now).orElse(null);
        if (s == null) {
            request.issue(new Session(null, codec.newToken(), now.plus(auth.sessionTimeout())));
            s = request.issued();
        }
        // The identity is ConsoleSessionAuth's: this session's user while that user is still configured.
        boolean loggedIn = s.loggedIn() && !identity.isAnonymous() && s.user().equals(identity.getPrincipal().getName());
        request.session(auth.enabled() && loggedIn ? s.user() : null, s.csrf());
        request.role(ConsoleRole.highest(identity.getRoles()));
        if (!auth.enabled() || loggedIn || path.equals(LoginPage.PATH)) {
            return null;
        }
        String method = ctx.getMethod();
        if (method.equals("GET") || method.equals("HEAD")) {
            String query = ctx.getUriInfo().getRequestUri().getRawQuery();
            String next = path + (query == null ? "" : "?" + query);
            return Response.seeOther(URI.create(Links.to(LoginPage.PATH).with("next", next).toString())).build();
        }
        return errors.response(403, "Log in first: this console requires a login, and your session has ended.");
    }

    @WithFormRead
    @ServerRequestFilter(priority = Priorities.AUTHENTICATION + 10)
    public Response csrf(ResteasyReactiveContainerRequestContext ctx) {
        String method = ctx.getMethod();
        if (!ConsoleErrorPage.isConsole(ctx.getUriInfo().getPath()) || method.equals("GET") || method.equals("HEAD")
                || method.equals("OPTIONS")) {
            return null;
        }
        Object sent = ((ResteasyReactiveRequestContext) ctx.getServerRequestContext())
                .getFormParameter("_csrf", true, false);
        if (sent instanceof String token && !token.isEmpty() && !request.csrf().isEmpty()
                && MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8),
                        request.csrf().getBytes(StandardCharsets.UTF_8))) {
            return null;
        }
        return errors.response(403, "This form did not come from your current console session (CSRF check failed). "
                + "Reload the page and try again.");
    }

    /**
     * Roles: a request the user's role does not allow ({@link ConsoleAccess}: a read-only user's action, an
     * operator's delete) is refused with 403 before the resource runs, whatever the page showed.
     */
    @WithFormRead
    @ServerRequestFilter(priority = Priorities.AUTHORIZATION)
    public Response role(ResteasyReactiveContainerRequestContext ctx) {
        String path = ctx.getUriInfo().getPath();
        String method = ctx.getMethod();
        if (!ConsoleErrorPage.isConsole(path) || method.equals("GET") || method.equals("HEAD")) {
            return null;
        }
        Object op = ((ResteasyReactiveRequestContext) ctx.getServerRequestContext()).getFormParameter("op", true, false);
        ConsoleRole role = request.role();
        ConsoleRole needed = ConsoleAccess.required(method, path, op instanceof String s ? s : null);
        if (needed == ConsoleRole.READONLY || role != null && role.includes(needed)) {
            return null; // the login and logout forms are open to everyone
        }
        return errors.response(403, role == null ? "Log in first: this console requires a login."
                : "Your role (" + role.wire() + ") may not do this: it needs the " + needed.wire() + " role.");
    }

    @ServerResponseFilter
    public void headers(ContainerRequestContext req, ContainerResponseContext res) {
        if (!ConsoleErrorPage.isConsole(req.getUriInfo().getPath())) {
            return;
        }
        MultivaluedMap<String, Object> h = res.getHeaders();
        h.putSingle("Content-Security-Policy", CSP);
        h.putSingle("X-Content-Type-Options", "nosniff");
        h.putSingle("X-Frame-Options", "DENY");
        h.putSingle("Referrer-Policy", "same-origin");
        h.putSingle(HttpHeaders.CACHE_CONTROL, "no-store");
        boolean secure = config.secureCookies()
                .orElse("https".equals(req.getUriInfo().getRequestUri().getScheme()));
        if (request.ended()) {
            h.add(HttpHeaders.SET_COOKIE, cookie(SESSION_COOKIE, "", 0, secure));
        } else if (request.issued() != null) {
            Session s = request.issued();
            long age = Math.max(1, s.expiresAt().getEpochSecond() - clock.instant().getEpochSecond());
            h.add(HttpHeaders.SET_COOKIE, cookie(SESSION_COOKIE, codec.encode(s), age, secure));
        }
        if ("GET".equals(req.getMethod()) && request.flash() != null && !req.getUriInfo().getPath().endsWith("/live")) {
            h.add(HttpHeaders.SET_COOKIE, cookie(Flash.COOKIE, "", 0, secure));
        }
    }

    static String cookie(String name, String value, long maxAge, boolean secure) {
        return name + "=" + value + "; Path=/admin; Max-Age=" + maxAge + "; HttpOnly; SameSite=Strict"
                + (secure ? "; Secure" : "");
    }
}
