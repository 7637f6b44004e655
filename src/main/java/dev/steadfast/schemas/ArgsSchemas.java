package dev.steadfast.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion.VersionFlag;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.resource.AllowSchemaLoader;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * JSON Schema for job args, by the networknt validator: checks a schema before it is registered against its
 * dialect's meta-schema ({@link #compile}), and job args against a compiled schema ({@link #violations}).
 *
 * <p>Dialect: draft 2020-12 (ojs-schema-registry.md 5.1); a {@code $schema} naming another is refused. A schema
 * without {@code $schema} that uses the array form of {@code items} (positional items, which 2020-12 spells
 * {@code prefixItems}) is read as draft 2019-09, where that form means what its author meant: OJS args are
 * positional, and the conformance suite registers them so. {@code format} is asserted (an {@code email} that is
 * not one is a violation). Only the schema itself and the meta-schemas shipped in the validator's jar are read:
 * a {@code $ref} to anything else (another server, a file) is refused at registration, never fetched.
 *
 * <p>What a schema checks (ojs-schema-registry.md 5.2, ojs-core.md: args are an array, a single object is sent as
 * {@code [{...}]}): the {@code args} array; a schema whose {@code type} is {@code "object"} describes that single
 * object, so args must then be exactly one object, which is checked. Compiled schemas are immutable and shared
 * between threads.
 */
@ApplicationScoped
class ArgsSchemas {

    static final String DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
    static final String DRAFT_2019_09 = "https://json-schema.org/draft/2019-09/schema";
    /** At most this many violations are reported for one job. */
    static final int MAX_VIOLATIONS = 20;

    /** A schema ready to check args with. */
    public record Compiled(JsonSchema schema, boolean oneObject) {
    }

    /** One way args miss their schema (ojs-json-format.md 12.4): where, what, and the schema keyword. */
    public record Violation(String path, String message, String schemaPath) {

        public Map<String, Object> wire() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("path", path);
            m.put("message", message);
            m.put("schema_path", schemaPath);
            return m;
        }
    }

    private final JsonSchemaFactory v2020 = factory(VersionFlag.V202012);
    private final JsonSchemaFactory v2019 = factory(VersionFlag.V201909);
    private final SchemaValidatorsConfig checking = SchemaValidatorsConfig.builder().formatAssertionsEnabled(true)
            .pathType(PathType.JSON_PATH).locale(Locale.ENGLISH).build();
    private final SchemaValidatorsConfig metaChecking = SchemaValidatorsConfig.builder().pathType(PathType.JSON_PATH)
            .locale(Locale.ENGLISH).build();
    private final JsonSchema meta2020 = v2020.getSchema(SchemaLocation.of(DRAFT_2020_12), metaChecking);
    private final JsonSchema meta2019 = v2019.getSchema(SchemaLocation.of(DRAFT_2019_09), metaChecking);

    /** Reads only the shipped meta-schemas (mapped to classpath: by the validator); anything else is refused. */
    private static JsonSchemaFactory factory(VersionFlag dialect) {
        return JsonSchemaFactory.getInstance(dialect, b -> b.schemaLoaders(l -> l.add(
                new AllowSchemaLoader(iri -> iri.toString().startsWith("classpath:")))));
    }

    /**
     * The schema {@code doc}, checked against its dialect's meta-schema and compiled; 400 invalid_request with the
     * reasons in {@code details.schema_errors} when it is not a valid schema for args.
     */
    public Compiled compile(String field, JsonNode doc) {
        if (doc == null || !doc.isObject()) {
            throw OjsException.invalidField(field, "'" + field + "' must be a JSON Schema object.", "object",
                    doc == null ? "missing" : doc.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        JsonNode dialect = doc.get("$schema");
        boolean legacyItems = dialect == null && usesPositionalItems(doc);
        if (dialect != null && !(dialect.isTextual() && dialect.textValue().contains("2020-12"))) {
            throw invalid("$schema must reference draft 2020-12", List.of("$schema must reference draft 2020-12"));
        }
        JsonSchema meta = legacyItems ? meta2019 : meta2020;
        List<String> errors = new ArrayList<>();
        try {
            for (ValidationMessage m : meta.validate(doc)) {
                errors.add(m.getMessage());
            }
            if (!errors.isEmpty()) {
                throw invalid(errors.get(0), errors);
            }
            JsonSchema compiled = (legacyItems ? v2019 : v2020).getSchema(doc, checking);
            compiled.initializeValidators();
            return new Compiled(compiled, doc.path("type").isTextual() && "object".equals(doc.get("type").textValue()));
        } catch (OjsException e) {
            throw e;
        } catch (RuntimeException e) { // an unresolvable or refused $ref, a bad pattern
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw invalid(reason, List.of(reason));
        }
    }

    private static OjsException invalid(String first, List<String> all) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("field", "schema");
        d.put("schema_error", first);
        d.put("schema_errors", all.size() > MAX_VIOLATIONS ? all.subList(0, MAX_VIOLATIONS) : all);
        return new OjsException(ErrorCode.INVALID_REQUEST, "The provided JSON Schema is not valid draft 2020-12: "
                + first, d);
    }

    /** True when some {@code items} in the document is an array (the pre-2020-12 positional form). */
    static boolean usesPositionalItems(JsonNode node) {
        if (node.isObject()) {
            JsonNode items = node.get("items");
            if (items != null && items.isArray()) {
                return true;
            }
        }
        if (node.isContainerNode()) {
            for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
                if (usesPositionalItems(it.next())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** How {@code args} (the job's array) misses {@code schema}, at most {@link #MAX_VIOLATIONS}; empty when it matches. */
    public List<Violation> violations(Compiled c, JsonNode args) {
        JsonNode target = args;
        String base = "$.args";
        if (c.oneObject()) {
            if (args.size() != 1 || !args.get(0).isObject()) {
                return List.of(new Violation(base, "args must be a single object ([{...}]) for a schema of type"
                        + " object; got " + args.size() + " element(s)", "#/type"));
            }
            target = args.get(0);
            base = "$.args[0]";
        }
        Set<ValidationMessage> found = c.schema().validate(target);
        List<Violation> out = new ArrayList<>(Math.min(found.size(), MAX_VIOLATIONS));
        for (ValidationMessage m : found) {
            if (out.size() == MAX_VIOLATIONS) {
                break;
            }
            String at = m.getInstanceLocation() == null ? "$" : m.getInstanceLocation().toString();
            String message = m.getError() != null ? m.getError() : m.getMessage();
            out.add(new Violation(base + at.substring(1), message,
                    m.getSchemaLocation() == null ? null : m.getSchemaLocation().toString()));
        }
        return out;
    }
}
