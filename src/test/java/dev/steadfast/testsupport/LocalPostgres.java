package dev.steadfast.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts (or reuses) the throwaway PostgreSQL cluster of scripts/local-pg with a database of its own for tests,
 * and points the datasource at it. Tests always run against a real PostgreSQL.
 */
public class LocalPostgres implements QuarkusTestResourceLifecycleManager {

    public static final String DATABASE = "steadfast_test";

    /**
     * An admin API token for the packaged application, which runs in the prod profile with API authentication
     * on (the test profile has it off and ignores the token); {@link PackagedToken} sends it.
     */
    public static final String API_TOKEN = "packaged-test-admin-token";
    static final String API_TOKEN_LINE = "admin:sha256:59c5109d39941d14b3079a4fe3b0a0545201c8389ac5b4527c01114f983a34c3";

    @Override
    public Map<String, String> start() {
        String url = run(Path.of("scripts", "local-pg").toAbsolutePath().toString(), "start", "--db", DATABASE);
        String hostPort = url.substring(url.indexOf('@') + 1, url.lastIndexOf('/'));
        return Map.of(
                "quarkus.datasource.reactive.url", "postgresql://" + hostPort + "/" + DATABASE,
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://" + hostPort + "/" + DATABASE,
                "quarkus.datasource.username", "steadfast",
                "quarkus.datasource.password", "steadfast",
                "steadfast.auth.tokens.\"packaged-tests\"", API_TOKEN_LINE);
    }

    @Override
    public void stop() {
        // The cluster outlives the test run so the next run starts fast; scripts/local-pg stop ends it.
    }

    static String run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                out = r.readLine();
            }
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0 || out == null) {
                throw new IllegalStateException("scripts/local-pg failed (exit " + p.exitValue() + ")");
            }
            return out.trim();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the local PostgreSQL for tests", e);
        }
    }
}
