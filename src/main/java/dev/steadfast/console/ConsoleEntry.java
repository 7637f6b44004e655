package dev.steadfast.console;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/**
 * {@code GET /}: a person who opens the server's address in a browser lands on the operator console, 303 to
 * {@code /admin}, in every profile. In production the console asks for its login there first
 * (steadfast.console.auth-enabled); the redirect itself reveals nothing. OJS clients start at {@code /ojs/manifest}.
 */
@Path("/")
@PermitAll
class ConsoleEntry {

    @GET
    public Response root() {
        return Response.seeOther(URI.create("/admin")).build();
    }
}
