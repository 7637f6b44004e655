package dev.steadfast.packaged;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.restassured.RestAssured;
import java.util.Map;

/**
 * The configuration every {@code *IT} adds to the prod profile: API authentication stays on (as in production)
 * with one admin token for the suite, whose SHA-256 is configured here and whose value the tests send. The token
 * is a fixed, public test value: it is accepted only by a server started with this profile.
 */
public class PackagedProfile implements QuarkusTestProfile {

    /** The suite's bearer token (MakeToken's format: stf_ and 32 bytes base64url). */
    static final String TOKEN = "stf_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8";

    /** SHA-256 of {@link #TOKEN}. */
    static final String TOKEN_SHA256 = "13691895d785c091ca35460b3b6dccc8e7360162bad5fac4027a5754aca8d5b9";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("steadfast.auth.tokens.\"packaged-tests\"", "admin:sha256:" + TOKEN_SHA256);
    }

    /**
     * Sends the suite's token with every request the tests make from now on (a global filter rather than a
     * request specification, which would pin the port before Quarkus sets it).
     */
    static void authenticate() {
        RestAssured.replaceFiltersWith((request, response, next) -> {
            request.header("Authorization", "Bearer " + TOKEN);
            return next.next(request, response);
        });
    }

    /** Sends no token from now on. */
    static void anonymous() {
        RestAssured.replaceFiltersWith(java.util.List.of());
    }
}
