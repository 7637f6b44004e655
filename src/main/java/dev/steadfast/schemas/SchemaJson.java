package dev.steadfast.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.schema.SchemaVersion;
import dev.steadfast.http.Body;
import dev.steadfast.http.OffsetPagination;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.schemas.SchemaStore.SchemaRow;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire shapes of the schema registry. One schema reads the same on every route: {@code uri}, {@code type} and
 * {@code job_type} (the same value: the binding and the registry extension name it differently), {@code version}
 * as registered (a whole number as a number, a dotted one as a string), {@code schema} (the JSON Schema; absent in
 * listings), {@code compatible_with} when given, {@code created_at}. The binding's routes wrap it in
 * {@code {"schema": ...}}; the admin routes of ojs-job-versioning.md 11 answer it bare.
 */
final class SchemaJson {

    private SchemaJson() {
    }

    /** One schema; {@code schema} and {@code compatible_with} are omitted when absent. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"uri", "type", "job_type", "version", "schema", "compatible_with", "created_at"})
    record View(String uri, String type, String jobType, Object version,
                @JsonInclude(JsonInclude.Include.NON_NULL) RawValue schema,
                @JsonInclude(JsonInclude.Include.NON_NULL) List<String> compatibleWith, String createdAt) {
    }

    /** The admin API's latest version: the schema with the type's {@code versions} beside it. */
    record Latest(@JsonUnwrapped View schema, List<VersionLine> versions) {
    }

    /** {@code {"type", "versions": [...]}}. */
    record Versions(String type, List<VersionLine> versions) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record VersionLine(Object version, String uri, String createdAt, boolean isLatest) {
    }

    /** {@code {"schema": ...}}: the binding's routes wrap one schema. */
    record Wrapped(View schema) {
    }

    /** The binding's list: {@code {"schemas": [...], "pagination": {...}}}. */
    record Page(List<View> schemas, OffsetPagination pagination) {
    }

    /** {@code {"deleted": true, "type", "version"}} for a deleted type version. */
    record DeletedVersion(boolean deleted, String type, Object version) {
    }

    /** {@code {"deleted": true, "uri"}} for a schema deleted by URI. */
    record DeletedUri(boolean deleted, String uri) {
    }

    /** A type's validation mode: {@code {"type", "mode", "source": "type"|"default"}}. */
    record ModeView(String type, String mode, String source) {

        static ModeView of(SchemaService.Mode m) {
            return new ModeView(m.type(), m.mode().wire(), m.own() ? "type" : "default");
        }
    }

    static View view(SchemaRow s) {
        return new View(s.uri(), s.type(), s.type(), s.version().wire(),
                s.schemaJson() == null ? null : new RawValue(s.schemaJson()), s.compatibleWith(),
                Timestamps.format(s.createdAt()));
    }

    /** A type's versions, newest first, the first marked latest (ojs-schema-registry.md 4.3). */
    static Versions versions(String type, List<SchemaRow> rows) {
        List<VersionLine> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            SchemaRow r = rows.get(i);
            out.add(new VersionLine(r.version().wire(), r.uri(), Timestamps.format(r.createdAt()), i == 0));
        }
        return new Versions(type, out);
    }

    /** A version from a path segment: 400 when it is not one. */
    static SchemaVersion pathVersion(String text) {
        return SchemaVersion.parse("version", text);
    }

    /** A version from a body field: a whole number or a version string; {@code dflt} when absent. */
    static SchemaVersion bodyVersion(Body b, String name, SchemaVersion dflt) {
        JsonNode v = b.raw(name);
        if (v == null) {
            return dflt;
        }
        return SchemaVersion.of(b.field(name), v.isIntegralNumber() ? (Object) v.longValue()
                : v.isTextual() ? v.textValue() : v);
    }

    /** The optional {@code compatible_with} list (ojs-job-versioning.md 6.1): versions. */
    static List<String> compatibleWith(Body b) {
        List<String> list = b.strings("compatible_with", false);
        if (list != null) {
            for (String s : list) {
                SchemaVersion.parse(b.field("compatible_with"), s);
            }
        }
        return list;
    }

    /** A URI given in a body: 1 to 1024 characters. */
    static String uri(Body b) {
        String uri = b.string("uri", false);
        if (uri != null && (uri.isBlank() || uri.length() > 1024)) {
            throw OjsException.invalidField("uri", "'uri' must be 1 to 1024 characters.", "1 to 1024 characters",
                    uri.length() + " characters");
        }
        return uri;
    }

    static DeletedVersion deleted(String type, SchemaVersion v) {
        return new DeletedVersion(true, type, v.wire());
    }
}
