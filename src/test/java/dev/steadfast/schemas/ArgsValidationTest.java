package dev.steadfast.schemas;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.push;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PUSH checks args against the registered JSON Schema (ojs-schema-registry.md 7): strict refuses with 400
 * schema_validation, warn creates the job with warnings, off checks nothing; per type, over the server's default
 * (warn in the test profile); single, batch and bulk PUSH; versioned jobs by their version, named schemas by URI.
 */
@QuarkusTest
class ArgsValidationTest {

    static final String ADMIN = "/ojs/v1/admin/schemas/";
    /** email.send v1: [to (an email), template (a string)], two or three args. */
    static final Map<String, Object> EMAIL_V1 = obj("$schema", "https://json-schema.org/draft/2020-12/schema",
            "type", "array", "prefixItems", arr(obj("type", "string", "format", "email"), obj("type", "string")),
            "minItems", 2, "maxItems", 3);

    @BeforeEach
    void reset() {
        Api.reset();
        send(obj("schema", EMAIL_V1)).put(ADMIN + "email.send/1").then().statusCode(201);
    }

    static void mode(String type, String mode) {
        send(obj("mode", mode)).put(ADMIN + type + "/validation").then().statusCode(200);
    }

    static Map<String, Object> email(Object... args) {
        return obj("type", "email.send", "args", arr(args), "options", obj("queue", "schemas"));
    }

    @Test
    void strictRefusesArgsThatMissTheSchemaAndCreatesNothing() {
        mode("email.send", "strict");
        Map<String, Object> e = assertError(push(email("not-an-email")), 400, "schema_validation");
        Map<?, ?> d = (Map<?, ?>) e.get("details");
        List<?> errors = (List<?>) d.get("validation_errors");
        assertEquals(2, errors.size(), errors::toString);
        assertTrue(errors.stream().anyMatch(x -> "$.args[0]".equals(((Map<?, ?>) x).get("path"))), errors::toString);
        assertTrue(errors.stream().anyMatch(x -> "$.args".equals(((Map<?, ?>) x).get("path"))), errors::toString);
        assertEquals(Map.of("uri", "urn:ojs:schema:email.send:v1", "type", "email.send", "version", 1), d.get("schema"));
        Api.push(email("a@example.com", "welcome")).then().statusCode(201).body(at("warnings", nullValue()));
        request().get("/ojs/v1/queues/schemas/stats").then().body(at("stats.available", equalTo(1))); // the good one
    }

    @Test
    void warnCreatesTheJobAndAnswersWarnings() {
        push(email("not-an-email", "welcome")).then().statusCode(201).body(at("job.state", equalTo("available")))
                .body(at("warnings", hasSize(1)))
                .body(at("warnings[0]", startsWith("Schema validation warning: $.args[0]: ")));
        push(email("a@example.com", "welcome")).then().statusCode(201).body(at("warnings", nullValue()));
    }

    @Test
    void offChecksNothing() {
        mode("email.send", "off");
        push(email(42)).then().statusCode(201).body(at("warnings", nullValue()));
    }

    @Test
    void aVersionedJobIsCheckedAgainstItsVersionAndAnUnversionedOneAgainstTheLatest() {
        mode("email.send", "strict");
        send(obj("schema", obj("type", "object", "required", arr("to")))).put(ADMIN + "email.send/2").then()
                .statusCode(201);
        // unversioned: version 2 (one object with "to")
        push(obj("type", "email.send", "args", arr(obj("to", "a@example.com")))).then().statusCode(201);
        assertError(push(email("a@example.com", "welcome")), 400, "schema_validation");
        // version 1 by field or in the type
        Map<String, Object> v1 = email("a@example.com", "welcome");
        v1.put("version", 1);
        push(v1).then().statusCode(201).body(at("job.version", equalTo(1)));
        push(obj("type", "email.send@1.0", "args", arr("a@example.com", "welcome"))).then().statusCode(201)
                .body(at("job.type", equalTo("email.send"))).body(at("job.version", equalTo("1.0")));
        assertError(push(obj("type", "email.send@1", "args", arr(obj("to", "x")))), 400, "schema_validation");
        // a version without a schema is not checked
        push(obj("type", "email.send", "version", "3.0", "args", arr(7))).then().statusCode(201);
    }

    @Test
    void aNamedSchemaUriIsUsedAndAnUnknownOneRefusedInStrictMode() {
        mode("email.send", "strict");
        send(obj("uri", "urn:example:loose", "type", "email.loose", "schema", obj("type", "array")))
                .post("/ojs/v1/schemas").then().statusCode(201);
        push(obj("type", "email.send", "schema", "urn:example:loose", "args", arr(1, 2, 3, 4))).then().statusCode(201);
        Map<String, Object> e = assertError(push(obj("type", "email.send", "schema", "urn:nothing",
                "args", arr("a@example.com", "x"))), 400, "invalid_request");
        assertEquals("schema", Api.detailField(e));
    }

    @Test
    void badJobVersionsAreRefused() {
        for (Object bad : List.of(0, -1, 1.5, "v1", true, List.of(1))) {
            Map<String, Object> job = email("a@example.com", "welcome");
            job.put("version", bad);
            Map<String, Object> e = assertError(push(job), 400, "invalid_request");
            assertEquals("version", Api.detailField(e));
        }
    }

    @Test
    void batchPushIsRefusedWholeOrAnswersWarningsPerJob() {
        List<Object> jobs = arr(email("a@example.com", "welcome"), email("bad"));
        send(obj("jobs", jobs)).post("/ojs/v1/jobs/batch").then().statusCode(201)
                .body(at("warnings", hasSize(2)))
                .body(at("warnings[0]", startsWith("jobs[1]: Schema validation warning")));
        mode("email.send", "strict");
        Map<String, Object> e = assertError(send(obj("jobs", jobs)).post("/ojs/v1/jobs/batch"), 400,
                "schema_validation");
        assertEquals(1, ((Map<?, ?>) e.get("details")).get("index"));
        request().get("/ojs/v1/queues/schemas/stats").then().body(at("stats.available", equalTo(2))); // the first batch
    }

    @Test
    void bulkPushRefusesTheBadJobsOnly() {
        mode("email.send", "strict");
        List<Object> jobs = arr(email("a@example.com", "welcome"), email("bad"));
        send(obj("jobs", jobs)).post("/ojs/v1/jobs/bulk").then().statusCode(207)
                .body(at("items.status", contains("created", "failed")))
                .body(at("items[1].error.code", equalTo("schema_validation")));
        assertError(send(obj("jobs", jobs, "atomicity", "atomic")).post("/ojs/v1/jobs/bulk"), 400,
                "schema_validation");
        mode("email.send", "warn");
        send(obj("jobs", jobs)).post("/ojs/v1/jobs/bulk").then().statusCode(200)
                .body(at("items[1].warnings", hasSize(2))).body(at("items[0].warnings", nullValue()));
    }

    @Test
    void aSchemaChangeAppliesToTheNextPush() {
        mode("email.send", "strict");
        assertError(push(email("bad")), 400, "schema_validation");
        request().delete(ADMIN + "email.send/1").then().statusCode(200);
        push(email("bad")).then().statusCode(201);
    }
}
