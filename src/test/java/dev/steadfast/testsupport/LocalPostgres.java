package dev.steadfast.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
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
        return coordinates(DATABASE);
    }

    /**
     * A database of its own on the same cluster, for server processes a test starts beside the suite's (so their
     * background work never meets the suite's data); {@code fresh}: dropped first if it exists.
     */
    public static Map<String, String> database(String name, boolean fresh) {
        if (fresh) {
            Map<String, String> suite = coordinates(DATABASE);
            try (Connection c = DriverManager.getConnection(suite.get("quarkus.datasource.jdbc.url"),
                    suite.get("quarkus.datasource.username"), suite.get("quarkus.datasource.password"));
                 Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            } catch (SQLException e) {
                throw new IllegalStateException("cannot drop database " + name, e);
            }
        }
        return coordinates(name);
    }

    /** Starts the cluster if needed, creates {@code name} unless it exists, and answers the datasource settings. */
    private static Map<String, String> coordinates(String name) {
        String url = run(Path.of("scripts", "local-pg").toAbsolutePath().toString(), "start", "--db", name);
        String hostPort = url.substring(url.indexOf('@') + 1, url.lastIndexOf('/'));
        return Map.of(
                "quarkus.datasource.reactive.url", "postgresql://" + hostPort + "/" + name,
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://" + hostPort + "/" + name,
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
