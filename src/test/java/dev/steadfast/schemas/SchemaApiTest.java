package dev.steadfast.schemas;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The schema registry: by URI (ojs-http-binding.md 15), by type and version (ojs-schema-registry.md 4,
 * ojs-job-versioning.md 11), one registry read both ways.
 */
@QuarkusTest
class SchemaApiTest {

    static final String URI = "urn:ojs:schema:email.send:v1";
    static final String ENCODED = "urn%3Aojs%3Aschema%3Aemail.send%3Av1";
    static final String ADMIN = "/ojs/v1/admin/schemas/";

    /** The path as written: the URI is already URL-encoded, as the binding asks. */
    static io.restassured.specification.RequestSpecification raw() {
        return request().urlEncodingEnabled(false);
    }

    static Map<String, Object> arraySchema(int minItems) {
        return obj("type", "array", "items", arr(obj("type", "string")), "minItems", minItems);
    }

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void registerListGetAndDeleteByUri() {
        Object schema = obj("$schema", "https://json-schema.org/draft/2020-12/schema", "type", "array");
        send(obj("uri", URI, "type", "email.send", "version", 1, "schema", schema)).post("/ojs/v1/schemas").then()
                .statusCode(201).header("Location", endsWith("/ojs/v1/schemas/" + ENCODED))
                .body(at("schema.uri", equalTo(URI))).body(at("schema.version", equalTo(1)))
                .body(at("schema.job_type", equalTo("email.send")));
        assertError(send(obj("uri", URI, "type", "email.send", "version", 2, "schema", schema))
                .post("/ojs/v1/schemas"), 409, "conflict");
        request().get("/ojs/v1/schemas").then().statusCode(200).body(at("schemas[0].uri", equalTo(URI)))
                .body(at("schemas[0].schema", nullValue())).body(at("pagination.total", equalTo(1)));
        raw().get("/ojs/v1/schemas/" + ENCODED).then().statusCode(200).body(at("schema.schema.type", equalTo("array")));
        raw().delete("/ojs/v1/schemas/" + ENCODED).then().statusCode(200).body(at("deleted", equalTo(true)));
        assertError(raw().get("/ojs/v1/schemas/" + ENCODED), 404, "not_found");
        assertError(raw().delete("/ojs/v1/schemas/" + ENCODED), 404, "not_found");
    }

    @Test
    void badRegistrationsAnswerTheEnvelope() {
        assertError(send(obj("uri", "u", "type", "a.b")).post("/ojs/v1/schemas"), 400, "invalid_request");
        assertError(send(obj("uri", "u", "schema", obj())).post("/ojs/v1/schemas"), 400, "invalid_request");
        assertError(send(obj("type", "a.b", "job_type", "c.d", "schema", obj())).post("/ojs/v1/schemas"), 400,
                "invalid_request");
        assertError(send(obj("uri", "u", "type", "a.b", "schema", obj("$schema", "http://json-schema.org/draft-07/schema")))
                .post("/ojs/v1/schemas"), 400, "invalid_request");
        assertError(send(obj("uri", "u", "type", "a.b", "version", 0, "schema", obj())).post("/ojs/v1/schemas"), 400,
                "invalid_request");
        assertError(send(obj("type", "a.b", "version", "1.x", "schema", obj())).post("/ojs/v1/schemas"), 400,
                "invalid_request");
        assertError(send(obj("type", "Not A Type", "schema", obj())).post("/ojs/v1/schemas"), 400, "invalid_request");
        Map<String, Object> e = assertError(send(obj("type", "a.b", "schema", obj("type", "arrray")))
                .post("/ojs/v1/schemas"), 400, "invalid_request");
        assertEquals("schema", Api.detailField(e));
        assertError(request().get("/ojs/v1/schemas?limit=0"), 400, "invalid_request");
        request().get("/ojs/v1/schemas").then().body(at("pagination.total", equalTo(0))); // nothing half-registered
    }

    @Test
    void typeAndVersionRegistrationsReadBothWays() {
        send(obj("job_type", "invoice.generate", "version", "2.0.0", "schema", arraySchema(1))).post("/ojs/v1/schemas")
                .then().statusCode(201).body(at("schema.uri", equalTo("urn:ojs:schema:invoice.generate:v2.0.0")))
                .body(at("schema.version", equalTo("2.0.0"))).body(at("schema.type", equalTo("invoice.generate")));
        send(obj("schema", arraySchema(2))).put(ADMIN + "invoice.generate/10").then().statusCode(201)
                .body(at("type", equalTo("invoice.generate"))).body(at("version", equalTo(10)))
                .body(at("schema.minItems", equalTo(2)));
        send(obj("schema", arraySchema(3))).put(ADMIN + "invoice.generate/2.1").then().statusCode(201);
        // latest: the highest version, by number, not by text
        request().get("/ojs/v1/schemas/invoice.generate").then().statusCode(200)
                .body(at("schema.version", equalTo(10)));
        request().get(ADMIN + "invoice.generate").then().statusCode(200).body(at("version", equalTo(10)))
                .body(at("schema.minItems", equalTo(2))).body(at("versions", hasSize(3)));
        request().get("/ojs/v1/schemas/invoice.generate/versions").then().statusCode(200)
                .body(at("versions.version", equalTo(List.of(10, "2.1", "2.0.0"))))
                .body(at("versions.is_latest", equalTo(List.of(true, false, false))));
        // "2", "2.0" and "2.0.0" are one version
        request().get(ADMIN + "invoice.generate/2").then().statusCode(200).body(at("version", equalTo("2.0.0")))
                .body(at("schema.minItems", equalTo(1)));
        raw().get("/ojs/v1/schemas/urn%3Aojs%3Aschema%3Ainvoice.generate%3Av10").then().statusCode(200)
                .body(at("schema.version", equalTo(10)));
        // delete the latest: the next one is latest
        request().delete(ADMIN + "invoice.generate/10.0").then().statusCode(200).body(at("deleted", equalTo(true)))
                .body(at("version", equalTo("10.0")));
        request().get(ADMIN + "invoice.generate").then().statusCode(200).body(at("version", equalTo("2.1")));
        request().delete("/ojs/v1/schemas/invoice.generate/2.1").then().statusCode(200);
        request().delete("/ojs/v1/schemas/invoice.generate/2").then().statusCode(200);
        assertError(request().get(ADMIN + "invoice.generate"), 404, "not_found");
        assertError(request().get("/ojs/v1/schemas/invoice.generate"), 404, "not_found");
        request().get(ADMIN + "invoice.generate/versions").then().statusCode(200).body(at("versions", hasSize(0)));
    }

    @Test
    void aVersionIsRegisteredOnceAndAnIdenticalPutIsHarmless() {
        send(obj("schema", arraySchema(1))).put(ADMIN + "payment.process/1").then().statusCode(201);
        send(obj("schema", arraySchema(1), "type", "payment.process", "version", 1)).put(ADMIN + "payment.process/1")
                .then().statusCode(200).body(at("version", equalTo(1)));
        Map<String, Object> e = assertError(send(obj("schema", arraySchema(5))).put(ADMIN + "payment.process/1.0"), 409,
                "conflict");
        assertEquals("urn:ojs:schema:payment.process:v1", ((Map<?, ?>) e.get("details")).get("existing_uri"));
        assertError(send(obj("type", "payment.process", "version", "1.0.0", "schema", arraySchema(5)))
                .post("/ojs/v1/schemas"), 409, "conflict");
        request().get(ADMIN + "payment.process/1").then().body(at("schema.minItems", equalTo(1))); // unchanged
    }

    @Test
    void badPutsAnswerTheEnvelope() {
        assertError(send(obj()).put(ADMIN + "invalid.empty/1"), 400, "invalid_request");
        assertError(send(obj("schema", arraySchema(1))).put(ADMIN + "a.b/zero"), 400, "invalid_request");
        assertError(send(obj("schema", arraySchema(1))).put(ADMIN + "a.b/0"), 400, "invalid_request");
        assertError(send(obj("schema", arraySchema(1), "type", "c.d")).put(ADMIN + "a.b/1"), 400, "invalid_request");
        assertError(send(obj("schema", arraySchema(1), "version", 2)).put(ADMIN + "a.b/1"), 400, "invalid_request");
        assertError(send(obj("schema", arraySchema(1), "compatible_with", arr("x"))).put(ADMIN + "a.b/1"), 400,
                "invalid_request");
        assertError(send(obj("schema", "no")).put(ADMIN + "a.b/1"), 400, "invalid_request");
        assertError(request().get(ADMIN + "a.b/1"), 404, "not_found");
        assertError(request().get(ADMIN + "a.b/x"), 400, "invalid_request");
        assertError(request().delete(ADMIN + "does.not.exist/99"), 404, "not_found");
        assertError(request().delete("/ojs/v1/schemas/does.not.exist/99"), 404, "not_found");
        send(obj("args_schema", arraySchema(1), "compatible_with", arr("1.0"))).put(ADMIN + "a.b/2.0").then()
                .statusCode(201).body(at("compatible_with", equalTo(List.of("1.0"))));
    }

    @Test
    void validationModesPerTypeAndTheDefault() {
        request().get(ADMIN + "mail.send/validation").then().statusCode(200).body(at("mode", equalTo("warn")))
                .body(at("source", equalTo("default")));
        send(obj("mode", "strict")).put(ADMIN + "mail.send/validation").then().statusCode(200)
                .body(at("mode", equalTo("strict"))).body(at("source", equalTo("type")));
        request().get(ADMIN + "mail.send/validation").then().body(at("mode", equalTo("strict")));
        send(obj("mode", null)).put(ADMIN + "mail.send/validation").then().statusCode(200)
                .body(at("mode", equalTo("warn"))).body(at("source", equalTo("default")));
        assertError(send(obj("mode", "loud")).put(ADMIN + "mail.send/validation"), 400, "invalid_request");
        assertError(send(obj()).put(ADMIN + "mail.send/validation"), 400, "invalid_request");
        assertError(send(obj("mode", "off")).put(ADMIN + "Bad Type/validation"), 400, "invalid_request");
    }
}
