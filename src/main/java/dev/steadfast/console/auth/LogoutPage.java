package dev.steadfast.console.auth;

import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Flash;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** {@code POST /admin/logout} (CSRF-checked like every console form): ends the session cookie. */
@Path("/admin/logout")
@PermitAll
class LogoutPage {

    private final ConsoleAuth auth;
    private final ConsoleRequest request;

    public LogoutPage(ConsoleAuth auth, ConsoleRequest request) {
        this.auth = auth;
        this.request = request;
    }

    @POST
    public Response logout() {
        request.end();
        return Flash.redirect(auth.enabled() ? LoginPage.PATH : "/admin", "You are logged out.");
    }
}
