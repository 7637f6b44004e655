package dev.steadfast.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.restassured.response.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Checks real HTTP answers against the OpenAPI document the server serves at {@code /q/openapi}: the status is one
 * the operation declares, the Content-Type one of the declared media types (none for a response without content),
 * the body valid against the declared JSON Schema (2020-12, as OpenAPI 3.1 defines it), and every header the
 * response declares as required is present. Request bodies the test means as good are validated against the
 * operation's request schema too. Every checked answer is recorded per operation, so a test can then insist
 * that each operation was exercised and that each status it declares was really seen.
 */
public final class OpenApiContract {

    /** A made-up base URI under which the document is loaded, so that its internal $refs resolve. */
    private static final String BASE = "https://steadfast.test/openapi.json";
    public static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options");

    private final JsonNode doc;
    private final JsonSchemaFactory schemas;
    private final ObjectMapper json = new ObjectMapper();
    /** "METHOD /template" to the statuses seen. */
    private final Map<String, Set<Integer>> seen = new TreeMap<>();

    public OpenApiContract(String servedJson) {
        try {
            this.doc = json.readTree(servedJson);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.schemas = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
                b -> b.schemaLoaders(l -> l.schemas(Map.of(BASE, servedJson))));
    }

    /** The document as the application ships it (src/main/resources/META-INF/openapi.yaml), as a tree. */
    public static JsonNode shippedDocument() {
        try (InputStream in = OpenApiContract.class.getResourceAsStream("/META-INF/openapi.yaml")) {
            if (in == null) {
                fail("META-INF/openapi.yaml is not on the classpath");
            }
            return new YAMLMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public JsonNode document() {
        return doc;
    }

    /** Every operation of the document as "METHOD /template". */
    public Set<String> operations() {
        Set<String> ops = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = doc.path("paths").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            for (String m : METHODS) {
                if (p.getValue().has(m)) {
                    ops.add(m.toUpperCase(Locale.ROOT) + " " + p.getKey());
                }
            }
        }
        return ops;
    }

    /** The statuses operation {@code op} ("METHOD /template") declares. */
    public Set<Integer> declared(String op) {
        Set<Integer> out = new TreeSet<>();
        operation(op).path("responses").fieldNames().forEachRemaining(s -> out.add(Integer.parseInt(s)));
        return out;
    }

    public Map<String, Set<Integer>> seen() {
        return seen;
    }

    /**
     * Checks {@code r}, the answer to {@code op} ("METHOD /template"), against the document and records it.
     * Returns {@code r} for further assertions.
     */
    public Response check(String op, Response r) {
        int status = r.statusCode();
        String where = op + " answered " + status + " " + abbreviate(r.asString());
        JsonNode operation = operation(op);
        String pointer = pointer(op) + "/responses/" + status;
        JsonNode response = operation.path("responses").get(Integer.toString(status));
        if (response == null) {
            fail(where + ": status " + status + " is not declared; declared: " + declared(op));
        }
        if (response.has("$ref")) {
            pointer = response.get("$ref").asText().substring(1);
            response = doc.at(pointer);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = response.path("headers").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> h = it.next();
            JsonNode header = h.getValue().has("$ref") ? doc.at(h.getValue().get("$ref").asText().substring(1))
                    : h.getValue();
            String value = r.header(h.getKey());
            if (header.path("required").asBoolean(false) && value == null) {
                fail(where + ": declared header " + h.getKey() + " is missing");
            }
            if (value != null && header.has("schema")) {
                validate(where + ", header " + h.getKey(), json.valueToTree(value),
                        headerPointer(h, pointer) + "/schema");
            }
        }
        JsonNode content = response.get("content");
        if (content == null || content.isEmpty()) {
            assertTrue(r.asString().isEmpty(), where + ": a response without declared content has a body");
        } else {
            String type = r.contentType() == null ? "" : r.contentType().split(";", 2)[0].trim();
            if (!content.has(type)) {
                fail(where + ": Content-Type '" + r.contentType() + "' is not declared; declared: "
                        + fieldNames(content));
            }
            String schema = pointer + "/content/" + escape(type) + "/schema";
            JsonNode body = type.contains("json") ? parse(where, r.asString()) : json.valueToTree(r.asString());
            validate(where, body, schema);
        }
        seen.computeIfAbsent(op, k -> new TreeSet<>()).add(status);
        return r;
    }

    /** Validates {@code body}, a request body the test means as good, against {@code op}'s request schema. */
    public void checkRequest(String op, Object body) {
        JsonNode rb = operation(op).get("requestBody");
        if (rb == null) {
            fail(op + " declares no request body but the test sends one");
        }
        JsonNode b = body instanceof String s ? parse(op + " request", s) : json.valueToTree(body);
        validate(op + " request " + abbreviate(b.toString()),
                b, pointer(op) + "/requestBody/content/application~1openjobspec+json/schema");
    }

    /** Validates a JSON value against the schema at {@code pointer} in the document. */
    public void validate(String where, JsonNode value, String pointer) {
        assertTrue(!doc.at(pointer).isMissingNode(), where + ": no schema at " + pointer);
        JsonSchema schema = schemas.getSchema(SchemaLocation.of(BASE + "#" + pointer));
        Set<ValidationMessage> errors = schema.validate(value);
        if (!errors.isEmpty()) {
            fail(where + ": does not match " + pointer + ": "
                    + errors.stream().map(ValidationMessage::getMessage).collect(Collectors.joining("; ")));
        }
    }

    /** Fails listing every operation that was never seen answering each status in {@code required.apply(op)}. */
    public void assertSeen(java.util.function.Function<String, Set<Integer>> required) {
        List<String> missing = new ArrayList<>();
        for (String op : operations()) {
            Set<Integer> want = new TreeSet<>(required.apply(op));
            want.removeAll(seen.getOrDefault(op, Set.of()));
            if (!want.isEmpty()) {
                missing.add(op + " " + want);
            }
        }
        assertEquals(List.of(), missing, "operations never seen answering these declared statuses");
    }

    private JsonNode operation(String op) {
        JsonNode o = doc.at(pointer(op));
        if (o.isMissingNode()) {
            fail("the document has no operation " + op);
        }
        return o;
    }

    private static String pointer(String op) {
        String[] mp = op.split(" ", 2);
        return "/paths/" + escape(mp[1]) + "/" + mp[0].toLowerCase(Locale.ROOT);
    }

    private String headerPointer(Map.Entry<String, JsonNode> h, String responsePointer) {
        return h.getValue().has("$ref") ? h.getValue().get("$ref").asText().substring(1)
                : responsePointer + "/headers/" + escape(h.getKey());
    }

    private JsonNode parse(String where, String text) {
        try {
            return json.readTree(text);
        } catch (IOException e) {
            fail(where + ": body is not JSON");
            return null;
        }
    }

    private static String escape(String s) {
        return s.replace("~", "~0").replace("/", "~1");
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static String abbreviate(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "..." : s;
    }
}
