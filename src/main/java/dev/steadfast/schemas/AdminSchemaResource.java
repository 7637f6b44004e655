package dev.steadfast.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.schema.SchemaVersion;
import dev.steadfast.domain.schema.ValidationMode;
import dev.steadfast.http.Body;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

/**
 * The schema registry by job type and version as ojs-job-versioning.md 11 draws it, under /ojs/v1/admin/schemas
 * (the same registry as /ojs/v1/schemas): {@code PUT /{type}/{version}} registers ({@code schema} or
 * {@code args_schema}; 201, or 200 when exactly this is registered already, 409 when something else is), and a
 * schema is answered bare, not wrapped. {@code /{type}/validation} reads and sets the type's validation mode.
 */
@Path("/ojs/v1/admin/schemas")
class AdminSchemaResource {

    private final SchemaService schemas;
    private final ObjectMapper json;

    public AdminSchemaResource(SchemaService schemas, ObjectMapper json) {
        this.schemas = schemas;
        this.json = json;
    }

    @PUT
    @Path("/{type}/{version}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> register(@PathParam("type") String type, @PathParam("version") String version, String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            SchemaVersion v = SchemaJson.pathVersion(version);
            String named = b.string("type", false);
            if (named != null && !named.equals(type)) {
                throw OjsException.invalidField("type", "The body's 'type' differs from the path's.", type, named);
            }
            SchemaVersion bodyVersion = SchemaJson.bodyVersion(b, "version", v);
            if (!bodyVersion.sameAs(v)) {
                throw OjsException.invalidField("version", "The body's 'version' differs from the path's.",
                        v.text(), bodyVersion.text());
            }
            JsonNode doc = b.has("schema") ? b.raw("schema") : b.raw("args_schema");
            if (doc == null) {
                throw OjsException.invalidField("schema", "The 'schema' field (or 'args_schema') is required: a JSON"
                        + " Schema object for the type's args.", "object", "missing");
            }
            return schemas.register(SchemaJson.uri(b), type, v, doc, SchemaJson.compatibleWith(b), true);
        }).map(r -> Response.fromResponse(Responses.json(json, r.created() ? 201 : 200, SchemaJson.view(r.schema())))
                .location(SchemaResource.location(r.schema().uri())).build());
    }

    @GET
    @Path("/{type}/{version}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("type") String type, @PathParam("version") String version) {
        return Uni.createFrom().item(() -> SchemaJson.pathVersion(version)).flatMap(v -> schemas.get(type, v))
                .map(s -> Responses.ok(json, SchemaJson.view(s)));
    }

    @DELETE
    @Path("/{type}/{version}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> delete(@PathParam("type") String type, @PathParam("version") String version) {
        return Uni.createFrom().item(() -> SchemaJson.pathVersion(version)).flatMap(v -> schemas.delete(type, v)
                .map(x -> Responses.ok(json, SchemaJson.deleted(type, v))));
    }

    /** The latest version, bare, with the type's {@code versions} beside it (ojs-job-versioning.md 11.2). */
    @GET
    @Path("/{type}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> latest(@PathParam("type") String type) {
        return schemas.latest(type).flatMap(s -> schemas.versions(type).map(all -> {
            return Responses.ok(json,
                    new SchemaJson.Latest(SchemaJson.view(s), SchemaJson.versions(type, all).versions()));
        }));
    }

    @GET
    @Path("/{type}/versions")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> versions(@PathParam("type") String type) {
        return schemas.versions(type).map(rows -> Responses.ok(json, SchemaJson.versions(type, rows)));
    }

    @GET
    @Path("/{type}/validation")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> mode(@PathParam("type") String type) {
        return schemas.mode(type).map(m -> Responses.ok(json, SchemaJson.ModeView.of(m)));
    }

    /** {@code {"mode": "strict"|"warn"|"off"}}; {@code "mode": null} returns the type to the server's default. */
    @PUT
    @Path("/{type}/validation")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> setMode(@PathParam("type") String type, String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            if (!b.node().has("mode")) {
                throw OjsException.invalidField("mode", "The 'mode' field is required: strict, warn, off, or null"
                        + " for the server's default.", "strict|warn|off|null", "missing");
            }
            String mode = b.string("mode", false);
            return schemas.setMode(type, mode == null ? null : ValidationMode.parse("mode", mode));
        }).map(m -> Responses.ok(json, SchemaJson.ModeView.of(m)));
    }
}
