package dev.steadfast.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON Schema library as the registry uses it: which schemas register, and what args miss them. */
class ArgsSchemasTest {

    static final ObjectMapper M = new ObjectMapper();
    static final ArgsSchemas SCHEMAS = new ArgsSchemas();

    static JsonNode j(String json) {
        try {
            return M.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static List<ArgsSchemas.Violation> check(String schema, String args) {
        return SCHEMAS.violations(SCHEMAS.compile("schema", j(schema)), j(args));
    }

    @Test
    void positionalArgsIn2020Form() {
        String s = "{'$schema':'https://json-schema.org/draft/2020-12/schema','type':'array',"
                + "'prefixItems':[{'type':'string','format':'email'},{'type':'integer','minimum':0}],'minItems':2}";
        assertEquals(List.of(), check(s, "['a@example.com', 3]"));
        List<ArgsSchemas.Violation> v = check(s, "['not-an-email', -1]");
        assertEquals(2, v.size(), v.toString());
        assertTrue(v.stream().anyMatch(x -> x.path().equals("$.args[0]") && x.message().contains("email")), v.toString());
        assertTrue(v.stream().anyMatch(x -> x.path().equals("$.args[1]") && x.schemaPath().contains("minimum")),
                v.toString());
        assertEquals("$.args", check(s, "['a@example.com']").get(0).path());
    }

    @Test
    void theArrayFormOfItemsIsPositionalWithoutSchemaKeyword() {
        String s = "{'type':'array','items':[{'type':'string'},{'type':'object','required':['x']}],'minItems':1}";
        assertEquals(List.of(), check(s, "['a', {'x': 1}]"));
        List<ArgsSchemas.Violation> v = check(s, "[1, {}]");
        assertEquals(2, v.size(), v.toString());
        assertTrue(v.stream().anyMatch(x -> x.path().equals("$.args[0]")), v.toString());
        assertTrue(v.stream().anyMatch(x -> x.path().equals("$.args[1]") && x.message().contains("x")), v.toString());
    }

    @Test
    void anObjectSchemaDescribesTheSingleObjectArg() {
        String s = "{'type':'object','required':['to','subject'],'properties':{'to':{'type':'string'}},"
                + "'additionalProperties':true}";
        assertEquals(List.of(), check(s, "[{'to':'a','subject':'b'}]"));
        List<ArgsSchemas.Violation> v = check(s, "[{'to':5}]");
        assertTrue(v.stream().anyMatch(x -> x.path().equals("$.args[0].to")), v.toString());
        assertTrue(v.stream().anyMatch(x -> x.message().contains("subject")), v.toString());
        assertEquals("$.args", check(s, "['a', 'b']").get(0).path());
        assertEquals("$.args", check(s, "[]").get(0).path());
    }

    @Test
    void localRefsResolve() {
        String s = "{'type':'array','prefixItems':[{'$ref':'#/$defs/id'}],'$defs':{'id':{'type':'string','minLength':3}}}";
        assertEquals(List.of(), check(s, "['abc']"));
        assertEquals(1, check(s, "['ab']").size());
    }

    @Test
    void invalidSchemasAreRefusedWithTheReasons() {
        for (String bad : List.of("{'type':'arrray'}", "{'minItems':-1}", "{'required':'x'}",
                "{'properties':{'a':{'type':7}}}")) {
            OjsException e = assertThrows(OjsException.class, () -> SCHEMAS.compile("schema", j(bad)), bad);
            assertEquals(ErrorCode.INVALID_REQUEST, e.code());
            assertTrue(e.details().get("schema_errors") instanceof List<?> l && !l.isEmpty(), e.details().toString());
        }
        assertThrows(OjsException.class, () -> SCHEMAS.compile("schema", j("[]")));
        assertThrows(OjsException.class, () -> SCHEMAS.compile("schema", null));
    }

    @Test
    void otherDialectsThan2020_12AreRefused() {
        OjsException e = assertThrows(OjsException.class, () -> SCHEMAS.compile("schema",
                j("{'$schema':'http://json-schema.org/draft-07/schema#','type':'array'}")));
        assertEquals("$schema must reference draft 2020-12", e.details().get("schema_error"));
    }

    @Test
    void refsToAnythingButTheSchemaItselfAreNeverFetched() throws Exception {
        // a server that would hand out a valid schema: the registry must neither ask it nor accept the $ref
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", x -> {
            asked.incrementAndGet();
            byte[] body = "{\"type\":\"string\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        server.start();
        try {
            String local = "http://127.0.0.1:" + server.getAddress().getPort() + "/s.json";
            for (String ref : List.of(local, local + "#/x", "file:///etc/hostname")) {
                OjsException e = assertThrows(OjsException.class, () -> SCHEMAS.compile("schema",
                        j("{'type':'array','prefixItems':[{'$ref':'" + ref + "'}]}")), ref);
                assertEquals(ErrorCode.INVALID_REQUEST, e.code());
            }
            assertEquals(0, asked.get(), "the validator fetched a remote $ref");
        } finally {
            server.stop(0);
        }
    }
}
