package dev.steadfast.schemas;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.schema.SchemaVersion;
import dev.steadfast.http.Body;
import dev.steadfast.http.OffsetPagination;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The schema registry as the binding (ojs-http-binding.md 15: by URI, the path's {@code :uri} URL-encoded) and the
 * registry extension (ojs-schema-registry.md 10: by job type and version) draw it, in one: a schema registered
 * either way is read either way. {@code GET /{uri}} answers the schema registered under that URI or, when none is,
 * the latest version of the type of that name. Job args are checked against registered schemas on PUSH
 * ({@code ArgsValidation}).
 */
@Path("/ojs/v1/schemas")
class SchemaResource {

    private final SchemaService schemas;
    private final ObjectMapper json;

    public SchemaResource(SchemaService schemas, ObjectMapper json) {
        this.schemas = schemas;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list(@QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        int l = Params.integer("limit", limit, 50, 1, 1000);
        int o = Params.integer("offset", offset, 0, 0, Integer.MAX_VALUE);
        return schemas.list(l, o).map(page -> {
            List<SchemaJson.View> out = new ArrayList<>(page.schemas().size());
            page.schemas().forEach(s -> out.add(SchemaJson.view(s)));
            return Responses.ok(json, new SchemaJson.Page(out,
                    new OffsetPagination(page.total(), l, o, o + out.size() < page.total())));
        });
    }

    /**
     * Register: {@code type} (or {@code job_type}), {@code version} (1 when absent), {@code schema}, and
     * optionally {@code uri} (else {@code urn:ojs:schema:<type>:v<version>}) and {@code compatible_with}.
     */
    @POST
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> register(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            String uri = SchemaJson.uri(b);
            String type = b.string("type", false);
            String jobType = b.string("job_type", false);
            if (type != null && jobType != null && !type.equals(jobType)) {
                throw OjsException.invalidField("job_type", "'type' and 'job_type' name the same thing; they differ.",
                        type, jobType);
            }
            String t = type != null ? type : jobType != null ? jobType : b.string("type", true); // 400 when neither
            SchemaVersion version = SchemaJson.bodyVersion(b, "version", SchemaVersion.parse("version", "1"));
            return schemas.register(uri, t, version, b.raw("schema"), SchemaJson.compatibleWith(b), false);
        }).map(r -> Response.fromResponse(Responses.json(json, 201, new SchemaJson.Wrapped(SchemaJson.view(r.schema()))))
                .location(location(r.schema().uri())).build());
    }

    static URI location(String uri) {
        return URI.create("/ojs/v1/schemas/" + URLEncoder.encode(uri, StandardCharsets.UTF_8));
    }

    /** The schema under this URI, else the latest version of the type of this name (ojs-schema-registry.md 4.2). */
    @GET
    @Path("/{uri}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("uri") String uri) {
        return schemas.byUriOrType(uri).map(s -> Responses.ok(json, new SchemaJson.Wrapped(SchemaJson.view(s))));
    }

    @DELETE
    @Path("/{uri}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> delete(@PathParam("uri") String uri) {
        return schemas.delete(uri).map(v -> Responses.ok(json, new SchemaJson.DeletedUri(true, uri)));
    }

    /** A type's versions, newest first; an empty list when it has none (ojs-schema-registry.md 4.3). */
    @GET
    @Path("/{type}/versions")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> versions(@PathParam("type") String type) {
        return schemas.versions(type).map(rows -> Responses.ok(json, SchemaJson.versions(type, rows)));
    }

    /** Deletes a type's version (ojs-schema-registry.md 4.4). */
    @DELETE
    @Path("/{type}/{version}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> deleteVersion(@PathParam("type") String type, @PathParam("version") String version) {
        return Uni.createFrom().item(() -> SchemaJson.pathVersion(version)).flatMap(v -> schemas.delete(type, v)
                .map(x -> Responses.ok(json, SchemaJson.deleted(type, v))));
    }
}
