package dev.steadfast.console.auth;

import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Pages;
import dev.steadfast.http.ConsoleErrorPage;
import io.smallrye.common.annotation.Blocking;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;

/**
 * {@code /admin/login} (logout is {@link LogoutPage}). A successful login starts a new session with a new CSRF token
 * (nothing from before the login survives it) and returns to the page the user wanted, which must be a console
 * page (no open redirect). The form is CSRF-checked like every other console form.
 */
@Path(LoginPage.PATH)
@Produces(MediaType.TEXT_HTML)
@PermitAll
public class LoginPage {

    public static final String PATH = "/admin/login";

    private final ConsoleAuth auth;
    private final SessionCodec codec;
    private final ConsoleRequest request;
    private final Clock clock;

    public LoginPage(ConsoleAuth auth, SessionCodec codec, ConsoleRequest request, Clock clock) {
        this.auth = auth;
        this.codec = codec;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Response form(@QueryParam("next") String next) {
        if (!auth.enabled() || request.user() != null) {
            return Response.seeOther(URI.create(safe(next))).build();
        }
        return page(200, safe(next), auth.configured() ? null
                : "Login is not configured on this server: set steadfast.console.password-hash.");
    }

    @POST
    @Blocking
    public Response login(@FormParam("username") String username, @FormParam("password") String password,
                          @FormParam("next") String next, @Context HttpServerRequest http) {
        if (!auth.enabled()) {
            return Response.seeOther(URI.create(safe(next))).build();
        }
        String remote = http.remoteAddress() == null ? "unknown" : http.remoteAddress().hostAddress();
        return switch (auth.check(username, password, remote)) {
            case OK -> {
                request.issue(new Session(username, codec.newToken(), clock.instant().plus(auth.sessionTimeout())));
                yield Response.seeOther(URI.create(safe(next))).build();
            }
            case WRONG -> page(401, safe(next), "Wrong user name or password.");
            case THROTTLED -> page(429, safe(next), "Too many failed logins from your address; try again in "
                    + ConsoleAuth.WINDOW.toMinutes() + " minutes.");
            case NOT_CONFIGURED -> page(403, safe(next),
                    "Login is not configured on this server: set steadfast.console.password-hash.");
        };
    }

    private Response page(int status, String next, String error) {
        return Response.status(status).type(ConsoleErrorPage.HTML)
                .entity(Pages.login(request.chrome("login"), next, error)).build();
    }

    /** Only console pages are valid destinations after login; anything else goes to the overview. */
    public static String safe(String next) {
        if (next == null || !next.startsWith("/admin") || next.startsWith(PATH) || next.contains("//")
                || next.contains("\\") || next.chars().anyMatch(ch -> ch < 0x20)) {
            return "/admin";
        }
        return next;
    }
}
