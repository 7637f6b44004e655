package dev.steadfast.testsupport;

import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Sends {@link LocalPostgres#API_TOKEN} with every request of a packaged-application test class (a RestAssured
 * filter, so the port Quarkus chose stays as it is): the packaged application runs in the prod profile, where
 * API authentication is on. A request that already carries an Authorization header keeps it.
 */
public class PackagedToken implements BeforeAllCallback, AfterAllCallback {

    private List<Filter> saved = List.of();

    @Override
    public void beforeAll(ExtensionContext context) {
        saved = new ArrayList<>(RestAssured.filters());
        RestAssured.filters((req, res, ctx) -> {
            if (!req.getHeaders().hasHeaderWithName("Authorization") && !anonymous) {
                req.header("Authorization", "Bearer " + LocalPostgres.API_TOKEN);
            }
            return ctx.next(req, res);
        });
    }

    @Override
    public void afterAll(ExtensionContext context) {
        RestAssured.replaceFiltersWith(saved);
    }

    private static volatile boolean anonymous;

    /** Runs {@code r} without the token (to see what an anonymous client gets). */
    public static void withoutToken(Runnable r) {
        anonymous = true;
        try {
            r.run();
        } finally {
            anonymous = false;
        }
    }
}
