package dev.steadfast.api;

import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static org.hamcrest.Matchers.equalTo;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The schema registry (ojs-http-binding.md 15). */
@QuarkusTest
class SchemaApiTest {

    static final String URI = "urn:ojs:schema:email.send:v1";
    static final String ENCODED = "urn%3Aojs%3Aschema%3Aemail.send%3Av1";

    /** The path as written: the URI is already URL-encoded, as the binding asks. */
    static io.restassured.specification.RequestSpecification raw() {
        return request().urlEncodingEnabled(false);
    }

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void registerListGetAndDelete() {
        Object schema = obj("$schema", "https://json-schema.org/draft/2020-12/schema", "type", "array");
        send(obj("uri", URI, "type", "email.send", "version", 1, "schema", schema)).post("/ojs/v1/schemas").then()
                .statusCode(201).body("schema.uri", equalTo(URI)).body("schema.version", equalTo(1));
        assertError(send(obj("uri", URI, "type", "email.send", "schema", schema)).post("/ojs/v1/schemas"), 409,
                "conflict");
        request().get("/ojs/v1/schemas").then().statusCode(200).body("schemas[0].uri", equalTo(URI))
                .body("pagination.total", equalTo(1));
        raw().get("/ojs/v1/schemas/" + ENCODED).then().statusCode(200).body("schema.schema.type", equalTo("array"));
        raw().delete("/ojs/v1/schemas/" + ENCODED).then().statusCode(200).body("deleted", equalTo(true));
        assertError(raw().get("/ojs/v1/schemas/" + ENCODED), 404, "not_found");
        assertError(raw().delete("/ojs/v1/schemas/" + ENCODED), 404, "not_found");
    }

    @Test
    void badRegistrationsAnswerTheEnvelope() {
        assertError(send(obj("type", "a.b", "schema", obj())).post("/ojs/v1/schemas"), 400, "invalid_request");
        assertError(send(obj("uri", "u", "type", "a.b")).post("/ojs/v1/schemas"), 400, "invalid_request");
        assertError(send(obj("uri", "u", "type", "a.b", "schema", obj("$schema", "http://json-schema.org/draft-07/schema")))
                .post("/ojs/v1/schemas"), 400, "invalid_request");
        assertError(send(obj("uri", "u", "type", "a.b", "version", 0, "schema", obj())).post("/ojs/v1/schemas"), 400,
                "invalid_request");
        assertError(request().get("/ojs/v1/schemas?limit=0"), 400, "invalid_request");
    }
}
