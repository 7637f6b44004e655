package dev.steadfast.http;

import dev.steadfast.domain.ErrorCode;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The 403 of an API token whose roles an endpoint's {@code @RolesAllowed} does not include: {@code permission_denied}
 * as an OJS envelope naming the token, its roles and the roles the endpoint requires (never the token's value), with
 * {@code WWW-Authenticate: Bearer ..., error="insufficient_scope"}, logged like every failed authentication
 * ({@link ApiAuth#logFailure}).
 */
class ApiAccessDenied {

    private final ApiAuth auth;
    private final SecurityIdentity identity;

    public ApiAccessDenied(ApiAuth auth, SecurityIdentity identity) {
        this.auth = auth;
        this.identity = identity;
    }

    @ServerExceptionMapper
    public Response denied(ForbiddenException e, ResourceInfo resource, HttpServerRequest request, UriInfo uri,
                           HttpHeaders headers) {
        String name = identity.getPrincipal().getName();
        List<String> roles = identity.getRoles().stream().sorted().toList();
        List<String> required = required(resource).stream().sorted().toList();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("token", name);
        d.put("roles", roles);
        d.put("required_roles", required);
        String path = uri.getPath();
        auth.logFailure(request, path, ErrorCode.PERMISSION_DENIED, "token '" + name + "' " + roles
                + " lacks a role of " + required);
        String message = "Token '" + name + "' (" + String.join(", ", roles) + ") may not " + request.method().name()
                + " " + path + ".";
        return Response.status(ErrorCode.PERMISSION_DENIED.status()).type(HttpFrame.OJS_MEDIA_TYPE)
                .header("WWW-Authenticate", ApiAuth.REALM + ", error=\"insufficient_scope\"")
                .entity(ErrorEnvelope.json(ErrorCode.PERMISSION_DENIED, message, d,
                        headers.getHeaderString(HttpFrame.REQUEST_ID)))
                .build();
    }

    /** The roles of the endpoint's {@code @RolesAllowed} (the method's, else its class's). */
    private static List<String> required(ResourceInfo resource) {
        Method m = resource == null ? null : resource.getResourceMethod();
        RolesAllowed r = m == null ? null : m.getAnnotation(RolesAllowed.class);
        if (r == null && m != null) {
            r = m.getDeclaringClass().getAnnotation(RolesAllowed.class);
        }
        return r == null ? List.of(ApiAccess.Role.ADMIN.wire()) : Arrays.asList(r.value());
    }
}
