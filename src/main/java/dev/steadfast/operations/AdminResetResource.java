package dev.steadfast.operations;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * POST /ojs/v1/admin/reset: empties every table, for the OJS conformance suite and tests. It exists only when
 * steadfast.admin.reset-enabled is true (dev and test profiles); otherwise the path answers 404 like any
 * unknown one.
 */
@Path("/ojs/v1/admin/reset")
@RolesAllowed(Roles.ADMIN)
class AdminResetResource {

    private final SystemService system;
    private final AdminConfig config;
    private final ObjectMapper json;

    public AdminResetResource(SystemService system, AdminConfig config, ObjectMapper json) {
        this.system = system;
        this.config = config;
        this.json = json;
    }

    @POST
    public Uni<Response> reset() {
        if (!config.resetEnabled()) {
            throw new OjsException(ErrorCode.NOT_FOUND, "No resource at POST /ojs/v1/admin/reset.",
                    Map.of("path", "/ojs/v1/admin/reset"));
        }
        return system.reset().map(v -> Responses.ok(json, Map.of("reset", true)));
    }
}
