package dev.steadfast.schemas;

import com.fasterxml.jackson.databind.util.RawValue;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.schema.SchemaVersion;
import dev.steadfast.http.Body;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.schemas.SchemaStore.SchemaRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    static Map<String, Object> view(SchemaRow s) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("uri", s.uri());
        v.put("type", s.type());
        v.put("job_type", s.type());
        v.put("version", s.version().wire());
        if (s.schemaJson() != null) {
            v.put("schema", new RawValue(s.schemaJson()));
        }
        if (s.compatibleWith() != null) {
            v.put("compatible_with", s.compatibleWith());
        }
        v.put("created_at", Timestamps.format(s.createdAt()));
        return v;
    }

    /** A type's versions, newest first, the first marked latest (ojs-schema-registry.md 4.3). */
    static Map<String, Object> versions(String type, List<SchemaRow> rows) {
        List<Map<String, Object>> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            SchemaRow r = rows.get(i);
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("version", r.version().wire());
            v.put("uri", r.uri());
            v.put("created_at", Timestamps.format(r.createdAt()));
            v.put("is_latest", i == 0);
            out.add(v);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("versions", out);
        return body;
    }

    /** A version from a path segment: 400 when it is not one. */
    static SchemaVersion pathVersion(String text) {
        return SchemaVersion.parse("version", text);
    }

    /** A version from a body field: a whole number or a version string; {@code dflt} when absent. */
    static SchemaVersion bodyVersion(Body b, String name, SchemaVersion dflt) {
        com.fasterxml.jackson.databind.JsonNode v = b.raw(name);
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

    /** {"deleted": true, ...} for a deleted type version. */
    static Map<String, Object> deleted(String type, SchemaVersion v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("deleted", true);
        m.put("type", type);
        m.put("version", v.wire());
        return m;
    }
}
