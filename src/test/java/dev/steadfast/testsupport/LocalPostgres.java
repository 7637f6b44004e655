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

    @Override
    public Map<String, String> start() {
        String url = run(Path.of("scripts", "local-pg").toAbsolutePath().toString(), "start", "--db", DATABASE);
        String hostPort = url.substring(url.indexOf('@') + 1, url.lastIndexOf('/'));
        return Map.of(
                "quarkus.datasource.reactive.url", "postgresql://" + hostPort + "/" + DATABASE,
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://" + hostPort + "/" + DATABASE,
                "quarkus.datasource.username", "steadfast",
                "quarkus.datasource.password", "steadfast");
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
