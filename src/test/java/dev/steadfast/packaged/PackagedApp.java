package dev.steadfast.packaged;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The packaged application as production runs it: API authentication on (the prod default), with one admin token
 * configured the way an operator would (its SHA-256, never the token itself), and every request of the suite
 * carrying it. A profile so the override reaches the launched process.
 */
public class PackagedApp implements QuarkusTestProfile {

    static final String TOKEN = "packaged-suite-admin-token-2f6c1d0e9b8a4736a5c4d3e2f1a0b9c8";

    /**
     * The console session key, fixed as it must be when several instances share a database (docs/operations/several-instances.md): a second instance a test starts beside this one passes the same.
     */
    static final String SESSION_SECRET = "packaged-suite-console-session-key-7d3a9c51e2b84f60";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("steadfast.auth.tokens.\"packaged-suite\"", "admin:sha256:" + sha256(TOKEN),
                "steadfast.console.session-secret", SESSION_SECRET);
    }

    /** Adds the admin token to a request (a global filter, so Quarkus' own port settings stay as they are). */
    private static final Filter BEARER = (req, res, ctx) -> {
        if (!req.getHeaders().hasHeaderWithName("Authorization")) {
            req.header("Authorization", "Bearer " + TOKEN);
        }
        return ctx.next(req, res);
    };

    /** Every request the test makes from now on carries the admin token. */
    static void authorize() {
        if (!RestAssured.filters().contains(BEARER)) {
            RestAssured.filters(BEARER);
        }
    }

    /** Requests go without the token again (to see the refusal). */
    static void anonymous() {
        List<Filter> others = new ArrayList<>(RestAssured.filters());
        others.remove(BEARER);
        RestAssured.replaceFiltersWith(others);
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
