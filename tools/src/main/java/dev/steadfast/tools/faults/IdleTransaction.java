package dev.steadfast.tools.faults;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The idle-transaction step of a fault run: a {@code psql} session on the run's database begins a REPEATABLE READ
 * transaction, reads one row count (so it holds a snapshot, the xmin horizon) and stays idle in that transaction
 * while the load runs, as a forgotten report session does. Every instance's readiness details
 * ({@code vacuum-horizon}: {@code horizon_state} "idle in transaction", {@code horizon_seconds}) and metric
 * ({@code steadfast_database_vacuum_horizon_seconds}) must show it, at least {@link #MIN_AGE_SECONDS} old, within
 * {@link #WITHIN_MS}; then the
 * transaction is rolled back.
 */
final class IdleTransaction {

    /** How long the instances may take to show the held horizon (the "within a minute"). */
    static final long WITHIN_MS = 60_000;
    /** The age both must show: a sample taken after the transaction had been idle a while, not one at its start. */
    static final long MIN_AGE_SECONDS = 5;

    /**
     * What the step saw.
     *
     * @param visibleMs     from BEGIN until every instance showed it in readiness and metrics (-1: not within 60 s)
     * @param horizonSecond the horizon age the last instance reported in its readiness details then
     * @param instances     how many instances were asked
     */
    record Outcome(long visibleMs, long horizonSecond, int instances) {
        boolean ok() {
            return visibleMs >= 0;
        }

        String line() {
            return visibleMs < 0
                    ? "idle transaction: NOT shown by every instance's readiness and metrics within 60 s"
                    : String.format("idle transaction: shown in readiness (horizon_state \"idle in transaction\","
                            + " horizon_seconds %d) and metrics by every instance up (of %d) %d ms after BEGIN", horizonSecond,
                            instances, visibleMs);
        }
    }

    private IdleTransaction() {
    }

    static Outcome run(Instances servers, int instances, String databaseUrl, Path logs, Observations obs)
            throws IOException, InterruptedException {
        Process psql = new ProcessBuilder(List.of(psqlBinary(), "-X", "-q", "-v", "ON_ERROR_STOP=1", databaseUrl))
                .redirectErrorStream(true).redirectOutput(logs.resolve("idle-transaction.log").toFile()).start();
        long t = System.nanoTime();
        try (OutputStream in = psql.getOutputStream()) {
            in.write("BEGIN ISOLATION LEVEL REPEATABLE READ;\nSELECT count(*) FROM jobs;\n"
                    .getBytes(StandardCharsets.UTF_8));
            in.flush();
            obs.say("idle transaction: a psql session holds a REPEATABLE READ snapshot, idle in its transaction");
            long visibleMs = -1;
            long horizon = -1;
            while (System.nanoTime() - t < WITHIN_MS * 1_000_000L && psql.isAlive()) {
                Optional<Long> seen = shownByAll(servers, instances);
                if (seen.isPresent()) {
                    visibleMs = (System.nanoTime() - t) / 1_000_000;
                    horizon = seen.get();
                    break;
                }
                Pace.sleep(500);
            }
            in.write("ROLLBACK;\n\\q\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            Outcome out = new Outcome(visibleMs, horizon, instances);
            obs.say("%s; rolled back", out.line());
            return out;
        } finally {
            if (!psql.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                psql.destroyForcibly();
            }
        }
    }

    /**
     * The smallest horizon age shown when every instance that is up shows the held transaction (at least all but
     * one: instance 0 may be killed meanwhile); empty otherwise. Asked directly, not through the run's client:
     * these are not OJS routes, and a readiness 503 is not an answer of the API.
     */
    private static Optional<Long> shownByAll(Instances servers, int instances) {
        long least = Long.MAX_VALUE;
        int shown = 0;
        for (int i = 0; i < instances; i++) {
            if (!servers.isUp(i)) {
                continue;
            }
            String ready = plainGet(servers.port(i), "/q/health/ready");
            if (!ready.contains("\"idle in transaction\"")) {
                return Optional.empty();
            }
            Matcher m = HORIZON_SECONDS.matcher(ready);
            Optional<Double> metric = metric(plainGet(servers.port(i), "/q/metrics"),
                    "steadfast_database_vacuum_horizon_seconds");
            if (!m.find() || Long.parseLong(m.group(1)) < MIN_AGE_SECONDS || metric.isEmpty()
                    || metric.get() < MIN_AGE_SECONDS) {
                return Optional.empty();
            }
            least = Math.min(least, Long.parseLong(m.group(1)));
            shown++;
        }
        return shown >= Math.max(1, instances - 1) ? Optional.of(least) : Optional.empty();
    }

    private static final Pattern HORIZON_SECONDS = Pattern.compile("\"horizon_seconds\"\\s*:\\s*(\\d+)");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The body of a GET (any status), "" without an answer. */
    private static String plainGet(int port, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** PostgreSQL's own psql (the newest under /usr/lib/postgresql, as scripts/local-pg uses), else the PATH's. */
    private static String psqlBinary() throws IOException {
        Path root = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(root)) {
            try (var versions = Files.list(root)) {
                Optional<Path> newest = versions.map(v -> v.resolve("bin/psql")).filter(Files::isExecutable)
                        .max(java.util.Comparator.comparing(Path::toString));
                if (newest.isPresent()) {
                    return newest.get().toString();
                }
            }
        }
        return "psql";
    }

    /** A gauge's value in the Prometheus text format (the first line of that name). */
    static Optional<Double> metric(String text, String name) {
        for (String line : text.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                String v = line.substring(line.lastIndexOf(' ') + 1);
                try {
                    return Optional.of(Double.parseDouble(v));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }
}
