package dev.steadfast.testsupport;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.HashMap;
import java.util.Map;

/**
 * The test profiles that several {@code @QuarkusTest} classes share. Every distinct profile is one more Quarkus build
 * (made while the tests are discovered) and one more start and stop, together about 15-20 s on two shared cores
 * (docs/internals/testing.md), so a class that needs settings of its own joins the profile whose other classes those
 * settings do not disturb rather than adding one; each setting below names the class it is for. One class keeps a
 * profile of its own: {@code CostBudgetTest} (its own database resource, the counting proxy).
 */
public final class Profiles {

    private Profiles() {
    }

    /**
     * API authentication on (the production default), one token per role: {@code ApiAuthTest}'s tokens, by their
     * SHA-256. Also: at most 3 failed-authentication log lines per hour ({@code AuthFailureLogTest}; no other class
     * here reads the log), and {@code max_attempts} outside 1..10 refused ({@code MaxAttemptsRejectTest}; no other
     * class here asks for more than 10). And TLS on beside plain HTTP, as a deployment runs ({@code GrpcTlsTest}; the
     * others speak plain HTTP on the HTTP port, as before).
     */
    public static class Tokens implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> c = tokens();
            c.putAll(TestTls.serverConfig());
            c.put("steadfast.auth.failure-log.lines", "3");
            c.put("steadfast.auth.failure-log.window", "1h");
            c.put("steadfast.retry.max-attempts-min", "1");
            c.put("steadfast.retry.max-attempts-max", "10");
            c.put("steadfast.retry.max-attempts-out-of-range", "reject");
            return c;
        }
    }

    /**
     * The tokens of {@link Tokens} and the reset hook off, as in production ({@code OpenApiAuthContractTest},
     * {@code ResetDisabledTest}). Also: {@code max_attempts} outside 1..100 reset to the default, and a type whose
     * configured 1000 is out of range ({@code MaxAttemptsRangeTest}).
     */
    public static class TokensWithoutReset implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> c = tokens();
            c.put("steadfast.admin.reset-enabled", "false");
            c.put("steadfast.retry.max-attempts-min", "1");
            c.put("steadfast.retry.max-attempts-max", "100");
            c.put("steadfast.retry.max-attempts-out-of-range", "reset");
            c.put("steadfast.retry.types.\"too.many\"", "{\"max_attempts\":1000}");
            return c;
        }
    }

    /**
     * Switches that only their own class notices: every worker answer must name its worker
     * ({@code RequireWorkerIdTest}), the console without login ({@code ConsoleWithoutLoginTest}), Hibernate checking
     * the entities against the migrated schema at start ({@code SchemaValidationTest}), and retry policies for the
     * defaults, queues and types ({@code RetryScopesTest}: a default {@code max_attempts} of 5, clamped to 100), and
     * workers told to go quiet when the server drains ({@code ServerDrainTest}, which puts the server into shutdown for
     * good and so must run last of these classes: {@code TestProfilesTest} checks it does).
     */
    public static class Switches implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> c = new HashMap<>();
            c.put("steadfast.workers.require-worker-id", "true");
            c.put("steadfast.console.auth-enabled", "false");
            c.put("quarkus.hibernate-orm.schema-management.strategy", "validate");
            c.put("steadfast.retry.defaults", "{\"max_attempts\":5}");
            c.put("steadfast.retry.queues.billing", "{\"on_exhaustion\":\"dead_letter\",\"initial_interval\":\"PT10S\"}");
            c.put("steadfast.retry.types.\"invoice.send\"", "{\"max_attempts\":10}");
            c.put("steadfast.retry.queues.polling", "{\"backoff_strategy\":\"constant\",\"initial_interval\":\"PT10S\"}");
            c.put("steadfast.retry.queues.kathikon", KATHIKON);
            c.put("steadfast.retry.types.\"export.poll\"",
                    "{\"backoff_strategy\":\"custom\",\"intervals\":[\"PT1S\",\"PT2S\"],\"jitter\":false}");
            c.put("steadfast.retry.max-attempts-max", "100");
            c.put("steadfast.workers.quiet-on-shutdown", "true");
            return c;
        }
    }

    /** Kathikon's min(n² · 5 s, 86400 s) written out for retries 1 to 19 (its default max_attempts is 20). */
    public static final String KATHIKON = "{\"backoff_strategy\":\"custom\",\"jitter\":false,\"max_interval\":\"P1D\","
            + "\"max_attempts\":20,\"intervals\":[\"PT5S\",\"PT20S\",\"PT45S\",\"PT80S\",\"PT125S\",\"PT180S\",\"PT245S\","
            + "\"PT320S\",\"PT405S\",\"PT500S\",\"PT605S\",\"PT720S\",\"PT845S\",\"PT980S\",\"PT1125S\",\"PT1280S\","
            + "\"PT1445S\",\"PT1620S\",\"PT1805S\"]}";

    /** Authentication on with ApiAuthTest's four tokens (producer, worker, admin, readonly), by their SHA-256. */
    private static Map<String, String> tokens() {
        Map<String, String> c = new HashMap<>();
        c.put("steadfast.auth.enabled", "true");
        c.put("steadfast.auth.tokens.\"producer\"",
                "producer:sha256:063bc8f3c9eb95c6c96fc198bd0b7fd76f1010e7d8a9a51817ac0536508ecc86");
        c.put("steadfast.auth.tokens.\"worker\"",
                "worker:sha256:3db19f57f0d31e2eae2f1c259df9aa54337feb0a70b59292322d2783febd71ce");
        c.put("steadfast.auth.tokens.\"admin\"",
                "admin:sha256:17d6bfe05d1b1fb7bc499f8e3f639c7b3eda4c40f321eef8887a0c04c89a99c5");
        c.put("steadfast.auth.tokens.\"dashboard\"",
                "readonly:sha256:dd0d343c4c653512298dbbd6fe781aeb2faf35de119c891ed8f14ae2333196f1");
        return c;
    }
}
