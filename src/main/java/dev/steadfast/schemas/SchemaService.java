package dev.steadfast.schemas;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.schema.SchemaVersion;
import dev.steadfast.domain.schema.ValidationMode;
import dev.steadfast.http.Json;
import dev.steadfast.store.schemas.SchemaStore;
import dev.steadfast.store.schemas.SchemaStore.SchemaRow;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schema registry's operations (ojs-http-binding.md 15, ojs-schema-registry.md 4, ojs-job-versioning.md 11):
 * register (the schema checked first, {@link ArgsSchemas#compile}), read by URI, by type (the latest version) or by
 * type and version, list a type's versions, delete, and each type's validation mode. A URI or a type's version is
 * registered once: 409 {@code conflict}, except that registering again exactly what is registered, where the caller
 * says that is harmless ({@code PUT}), answers the registered schema. Every change makes this instance reread the
 * catalog PUSH checks against ({@link ArgsValidation}); other instances see it within a second.
 */
@ApplicationScoped
class SchemaService {

    private final SchemaStore store;
    private final Clock clock;
    private final ArgsSchemas schemas;
    private final ArgsValidation validation;
    private final ObjectMapper json;

    public SchemaService(SchemaStore store, Clock clock, ArgsSchemas schemas, ArgsValidation validation,
                         ObjectMapper json) {
        this.store = store;
        this.clock = clock;
        this.schemas = schemas;
        this.validation = validation;
        this.json = json;
    }

    /** A registration's answer: the schema, and whether this request created it. */
    public record Registration(SchemaRow schema, boolean created) {
    }

    /** The schema registered for {@code type} and {@code version} by default: {@code urn:ojs:schema:<type>:v<version>}. */
    public static String defaultUri(String type, SchemaVersion version) {
        return "urn:ojs:schema:" + type + ":v" + version.text();
    }

    /**
     * Registers {@code doc} as {@code type}'s {@code version} under {@code uri} (null: {@link #defaultUri}).
     * {@code repeatable}: the same registration again answers the registered schema instead of 409.
     */
    public Uni<Registration> register(String uri, String type, SchemaVersion version, JsonNode doc,
                                      List<String> compatibleWith, boolean repeatable) {
        JobRules.checkType(type);
        schemas.compile("schema", doc);
        String at = uri == null ? defaultUri(type, version) : uri;
        SchemaRow row = new SchemaRow(at, type, version, Json.write(json, doc), OperationTime.of(clock), compatibleWith);
        return store.insert(row).map(r -> {
            if (r.created()) {
                validation.changed();
                return new Registration(row, true);
            }
            SchemaRow existing = r.existing();
            if (repeatable && existing != null && existing.uri().equals(at) && existing.type().equals(type)
                    && existing.version().sameAs(version) && sameDocument(existing.schemaJson(), doc)) {
                return new Registration(existing, false);
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("uri", at);
            d.put("type", type);
            d.put("version", version.wire());
            if (existing != null) {
                d.put("existing_uri", existing.uri());
            }
            String what = existing != null && existing.uri().equals(at) ? "uri '" + at + "'"
                    : "version " + version.text() + " of '" + type + "'";
            throw new OjsException(ErrorCode.CONFLICT, "A schema with " + what + " is already registered; registered"
                    + " versions do not change: register a new version, or delete this one first.", d);
        });
    }

    private boolean sameDocument(String stored, JsonNode doc) {
        try {
            return stored != null && json.readTree(stored).equals(doc);
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    public Uni<SchemaStore.Page> list(int limit, int offset) {
        return store.list(limit, offset);
    }

    /** The schema registered under {@code uri}; 404 when none is. */
    public Uni<SchemaRow> get(String uri) {
        return store.find(uri).map(o -> o.orElseThrow(() -> OjsException.notFound("schema", uri)));
    }

    /** The schema registered under {@code key} as a URI, else the latest version of type {@code key}; 404 otherwise. */
    public Uni<SchemaRow> byUriOrType(String key) {
        return store.find(key).flatMap(o -> o.isPresent() ? Uni.createFrom().item(o.get())
                : latest(key));
    }

    /** The latest (highest) version of {@code type}; 404 when it has none. */
    public Uni<SchemaRow> latest(String type) {
        return store.latest(type).map(o -> o.orElseThrow(() -> OjsException.notFound("schema", type)));
    }

    /** {@code type}'s {@code version}; 404 when it is not registered. */
    public Uni<SchemaRow> get(String type, SchemaVersion version) {
        return store.find(type, version).map(o -> o.orElseThrow(() ->
                OjsException.notFound("schema", type + "@" + version.text())));
    }

    /** {@code type}'s versions, newest first (without documents); empty when it has none. */
    public Uni<List<SchemaRow>> versions(String type) {
        return store.versions(type);
    }

    public Uni<Void> delete(String uri) {
        return store.delete(uri).map(found -> {
            if (!found) {
                throw OjsException.notFound("schema", uri);
            }
            validation.changed();
            return null;
        });
    }

    public Uni<Void> delete(String type, SchemaVersion version) {
        return store.delete(type, version).map(found -> {
            if (!found) {
                throw OjsException.notFound("schema", type + "@" + version.text());
            }
            validation.changed();
            return null;
        });
    }

    /** A type's validation mode, and whether it is its own (else the server's default). */
    public record Mode(String type, ValidationMode mode, boolean own) {
    }

    public Uni<Mode> mode(String type) {
        return store.mode(type).map(o -> new Mode(type, o.orElse(validation.defaultMode()), o.isPresent()));
    }

    /** Sets {@code type}'s own mode; null returns it to the server's default. */
    public Uni<Mode> setMode(String type, ValidationMode mode) {
        JobRules.checkType(type);
        return store.setMode(type, mode, OperationTime.of(clock)).map(v -> {
            validation.changed();
            return new Mode(type, mode == null ? validation.defaultMode() : mode, mode != null);
        });
    }
}
