package dev.steadfast.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.service.Json;
import dev.steadfast.service.SchemaService;
import dev.steadfast.service.Timestamps;
import dev.steadfast.store.SchemaStore.SchemaRow;
import io.smallrye.mutiny.Uni;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schema registry (ojs-http-binding.md section 15): list, register, get and delete JSON Schemas by URI (the
 * path's {@code :uri} URL-encoded). Registered schemas are stored and served; jobs are not validated against
 * them (the manifest says {@code schema_validation: false}).
 */
@Path("/ojs/v1/schemas")
public class SchemaResource {

    private final SchemaService schemas;
    private final ObjectMapper json;

    public SchemaResource(SchemaService schemas, ObjectMapper json) {
        this.schemas = schemas;
        this.json = json;
    }

    @GET
    public Uni<Response> list(@QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        int l = Params.integer("limit", limit, 50, 1, 1000);
        int o = Params.integer("offset", offset, 0, 0, Integer.MAX_VALUE);
        return schemas.list(l, o).map(page -> {
            List<Map<String, Object>> out = new ArrayList<>(page.schemas().size());
            page.schemas().forEach(s -> out.add(view(s)));
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("total", page.total());
            p.put("limit", l);
            p.put("offset", o);
            p.put("has_more", o + out.size() < page.total());
            return Responses.ok(json, Map.of("schemas", out, "pagination", p));
        });
    }

    @POST
    public Uni<Response> register(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b -> {
            String uri = b.string("uri", true);
            if (uri.isBlank() || uri.length() > 1024) {
                throw OjsException.invalidField("uri", "'uri' must be 1 to 1024 characters.", "1 to 1024 characters",
                        uri.length() + " characters");
            }
            String type = JobRules.checkType(b.string("type", true));
            Long version = b.integer("version");
            if (version != null && (version < 1 || version > Integer.MAX_VALUE)) {
                throw OjsException.invalidField("version", "'version' must be a positive whole number.", "1 or more",
                        String.valueOf(version));
            }
            Body schema = b.object("schema");
            if (schema == null) {
                throw OjsException.invalidField("schema", "The 'schema' field is required: a JSON Schema object.",
                        "object", "missing");
            }
            if (schema.has("$schema") && !schema.string("$schema", false).contains("2020-12")) {
                throw new OjsException(dev.steadfast.domain.ErrorCode.INVALID_REQUEST,
                        "The provided JSON Schema is not draft 2020-12.",
                        Map.of("schema_error", "$schema must reference draft 2020-12"));
            }
            return schemas.register(uri, type, version == null ? 1 : version.intValue(), Json.write(json, schema.node()));
        }).map(s -> Response.fromResponse(Responses.json(json, 201, Map.of("schema", view(s))))
                .location(URI.create("/ojs/v1/schemas/" + URLEncoder.encode(s.uri(), StandardCharsets.UTF_8))).build());
    }

    @GET
    @Path("/{uri}")
    public Uni<Response> get(@PathParam("uri") String uri) {
        return schemas.get(uri).map(s -> Responses.ok(json, Map.of("schema", view(s))));
    }

    @DELETE
    @Path("/{uri}")
    public Uni<Response> delete(@PathParam("uri") String uri) {
        return schemas.delete(uri).map(v -> Responses.ok(json, Map.of("deleted", true, "uri", uri)));
    }

    private static Map<String, Object> view(SchemaRow s) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("uri", s.uri());
        v.put("type", s.type());
        v.put("version", s.version());
        if (s.schemaJson() != null) {
            v.put("schema", new RawValue(s.schemaJson()));
        }
        v.put("created_at", Timestamps.format(s.createdAt()));
        return v;
    }
}
