package dev.steadfast.store;

import static dev.steadfast.testsupport.Api.request;

import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * The Panache entities agree with the tables the migrations create: with Hibernate's schema validation on (what
 * dev mode runs at every start and live reload), the server starts. A column mapped to another type than its table's
 * (a jsonb column read as varchar(255)) fails validation, and with it this test's start.
 */
@QuarkusTest
@TestProfile(Profiles.Switches.class)
class SchemaValidationTest {

    @Test
    void theServerStartsWithTheSchemaValidated() {
        request().get("/ojs/v1/health").then().statusCode(200);
    }
}
