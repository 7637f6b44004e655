package dev.steadfast.packaged;

import dev.steadfast.testsupport.LocalPostgres;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * A second copy of the packaged jar (target/quarkus-app), started beside the one Quarkus launched for the suite,
 * on the same database and configured as that one is ({@link PackagedApp}: the admin token and the shared console
 * session key, which wins over the key kept in the database, see console.auth.SessionKeys), listening on {@code port}, its output in {@code target/<name>.log}. Polls its health for
 * up to two minutes; {@link #close} stops it.
 *
 * <p>The suite's classes share one ({@link #shared}): each start of a packaged jar costs 5-20 s on two shared cores.
 * It runs with C1 only ({@code -XX:TieredStopAtLevel=1}), as the jar Quarkus launches does (the failsafe settings in
 * pom.xml): the same bytecode, started with about half the CPU (7-8 s instead of 13-17 s, measured 2026-11-30).
 * That one has console login off ({@code ConsoleWithoutLoginIT} reads its pages), which the console alone reads.
 */
final class SecondInstance implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(120);

    final int port;
    final Map<String, String> db;
    private final Process process;

    private SecondInstance(int port, Map<String, String> db, Process process) {
        this.port = port;
        this.db = db;
        this.process = process;
    }

    /**
     * The port of {@link #shared}: one per checkout (as MultiInstanceIT's), so the suites of two checkouts can run on
     * one machine at once; outside the ephemeral ports.
     */
    static final int SHARED_PORT = 18_000 + Math.floorMod(Path.of("").toAbsolutePath().toString().hashCode(), 100) * 10;

    private static SecondInstance shared;

    /**
     * The second instance the suite's classes share, started on {@link #SHARED_PORT} by the first class that asks
     * (output in {@code target/second-instance.log}), with console login off, and stopped when the suite's JVM exits.
     */
    static synchronized SecondInstance shared() throws Exception {
        if (shared == null) {
            SecondInstance s = start(SHARED_PORT, "second-instance", Map.of("STEADFAST_CONSOLE_AUTH_ENABLED", "false"));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    s.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            shared = s;
        }
        return shared;
    }

    /** Starts the jar on {@code port} and waits until its health answers 200. */
    static SecondInstance start(int port, String name) throws Exception {
        return start(port, name, Map.of());
    }

    /** Starts the jar on {@code port}, with {@code settings} added to its environment, and waits for its health. */
    static SecondInstance start(int port, String name, Map<String, String> settings) throws Exception {
        Map<String, String> db = new LocalPostgres().start();
        String log = "target/" + name + ".log";
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-jar", "target/quarkus-app/quarkus-run.jar").redirectErrorStream(true).redirectOutput(new File(log));
        Map<String, String> env = pb.environment();
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", db.get("quarkus.datasource.reactive.url"));
        env.put("QUARKUS_DATASOURCE_JDBC_URL", db.get("quarkus.datasource.jdbc.url"));
        env.put("QUARKUS_DATASOURCE_USERNAME", db.get("quarkus.datasource.username"));
        env.put("QUARKUS_DATASOURCE_PASSWORD", db.get("quarkus.datasource.password"));
        env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        env.put("STEADFAST_AUTH_TOKENS_PACKAGED_SUITE", "admin:sha256:" + PackagedApp.sha256(PackagedApp.TOKEN));
        env.put("STEADFAST_CONSOLE_SESSION_SECRET", PackagedApp.SESSION_SECRET);
        env.putAll(settings);
        SecondInstance s = new SecondInstance(port, db, pb.start());
        Instant deadline = Instant.now().plus(START_LIMIT);
        while (status(port, "/ojs/v1/health") != 200) {
            if (!s.process.isAlive() || Instant.now().isAfter(deadline)) {
                s.close();
                throw new IllegalStateException("the second instance did not start; see " + log);
            }
            Thread.sleep(250);
        }
        return s;
    }

    /** {@code http://localhost:<port>}. */
    String base() {
        return "http://localhost:" + port;
    }

    /** The status of a GET to an instance on {@code port}, or -1 when it does not answer within two seconds. */
    static int status(int port, String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}
