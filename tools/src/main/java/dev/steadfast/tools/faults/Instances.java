package dev.steadfast.tools.faults;

import dev.steadfast.tools.Exit;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.OjsClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged servers of a fault run, on one database of the {@code scripts/local-pg} cluster, with API
 * authentication on (one admin token made here) and one shared console session key (a replacement for the rolling
 * upgrade starts with the default console settings instead); and the way to talk to them:
 * a request to an instance marked down goes to the next one up, every answer is classified in
 * {@link Observations}, and a request without an answer (its outcome unknown) is counted as a connection failure.
 */
final class Instances implements AutoCloseable {

    private final FaultsOptions o;
    private final Observations obs;
    private final String token;
    private final String hostPort;
    private final String psqlUrl;
    private final Map<String, String> env = new HashMap<>();
    private final Map<String, String> withKey;
    private final List<Process> servers = new CopyOnWriteArrayList<>();
    private final List<OjsClient> clients = new CopyOnWriteArrayList<>();
    private final AtomicLongArray downUntil = new AtomicLongArray(16);
    private volatile Process replacement;
    private Bouncer bouncer;

    Instances(FaultsOptions o, Observations obs) throws IOException, InterruptedException {
        this.o = o;
        this.obs = obs;
        Map<String, String> formation = o.failover == null ? Map.of() : formation(o.db);
        if (o.failover == null) {
            String url = command(List.of("scripts/local-pg", "start", "--db", o.db)).trim();
            Matcher m = Pattern.compile("@([^/]+)/").matcher(url);
            if (!m.find()) {
                throw new Exit(2, "faults: scripts/local-pg printed no URL: " + url);
            }
            hostPort = m.group(1);
            psqlUrl = "postgresql://steadfast:steadfast@" + hostPort + "/" + o.db;
        } else {
            hostPort = null;
            psqlUrl = formation.get("PGURL");
        }
        SecureRandom random = new SecureRandom();
        byte[] t = new byte[32];
        random.nextBytes(t);
        token = "stf_" + Base64.getUrlEncoder().withoutPadding().encodeToString(t);
        random.nextBytes(t);
        String secret = Base64.getEncoder().encodeToString(t);
        env.put("STEADFAST_AUTH_TOKENS_FAULTS", "admin:sha256:" + sha256(token));
        if (o.pgbouncer > 0) { // docs/operations/poolers.md: the pool and Flyway through it, the sessions direct
            bouncer = Bouncer.start(o.pgbouncer, hostPort, o.logs);
            String pooled = "postgresql://127.0.0.1:" + o.pgbouncer + "/" + o.db;
            env.put("QUARKUS_DATASOURCE_REACTIVE_URL", pooled);
            env.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:" + pooled + "?prepareThreshold=0");
            env.put("QUARKUS_DATASOURCE_REACTIVE_CACHE_PREPARED_STATEMENTS", "false");
            env.put("QUARKUS_DATASOURCE_REACTIVE_POSTGRESQL_USE_LAYER7_PROXY", "true");
            env.put("STEADFAST_DATABASE_SESSION_URL", "postgresql://" + hostPort + "/" + o.db);
            obs.say("PgBouncer in transaction mode on port %d in front of PostgreSQL on %s", o.pgbouncer, hostPort);
        } else if (o.failover != null) { // docs/operations/failover.md: both nodes listed, new connections to the primary
            formation.forEach((k, v) -> {
                if (!k.equals("PGURL")) {
                    env.put(k, v);
                }
            });
            obs.say("pg_auto_failover formation: %s", formation.get("QUARKUS_DATASOURCE_REACTIVE_URL"));
        } else {
            env.put("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://" + hostPort + "/" + o.db);
            env.put("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://" + hostPort + "/" + o.db);
        }
        env.put("QUARKUS_DATASOURCE_USERNAME", "steadfast");
        env.put("QUARKUS_DATASOURCE_PASSWORD", "steadfast");
        env.put("STEADFAST_ADMIN_RESET_ENABLED", "true");
        withKey = new HashMap<>(env);
        withKey.put("STEADFAST_CONSOLE_SESSION_SECRET", secret);
        for (int i = 0; i <= o.instances; i++) { // the last one for a replacement on the spare port
            clients.add(OjsClient.to("http://127.0.0.1:" + port(i)).token(token).connectTimeout(Duration.ofSeconds(2))
                    .requestIds("faults-" + ProcessHandle.current().pid() + "-i" + i).build());
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopAll();
            if (bouncer != null) {
                bouncer.close();
            }
        }));
    }

    String token() {
        return token;
    }

    /**
     * The run's database, straight to PostgreSQL (never through PgBouncer), as the server's role, for psql; with
     * {@code --failover} both nodes with {@code target_session_attrs=read-write}, so it reaches the primary.
     */
    String databaseUrl() {
        return psqlUrl;
    }

    /**
     * {@code scripts/failover-cluster start --db NAME}: the formation up (started if needed, which takes about a
     * minute), with its settings for the server and psql (its {@code KEY=value} lines).
     */
    private static Map<String, String> formation(String db) throws IOException, InterruptedException {
        Map<String, String> settings = new HashMap<>();
        for (String line : command(List.of("scripts/failover-cluster", "start", "--db", db)).split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                settings.put(line.substring(0, eq), line.substring(eq + 1).trim());
            }
        }
        if (!settings.containsKey("PGURL") || !settings.containsKey("QUARKUS_DATASOURCE_REACTIVE_URL")) {
            throw new Exit(2, "faults: scripts/failover-cluster printed no settings: " + settings);
        }
        return settings;
    }

    /**
     * Fails the formation's primary over ({@code scripts/failover-cluster failover}, {@code --kill}: SIGKILL of the
     * primary) and waits until the other node accepts writes; answers the script's line ("failover: A -> B, writes
     * accepted after S s").
     */
    static String failover(boolean kill) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("scripts/failover-cluster", "failover"));
        if (kill) {
            cmd.add("--kill");
        }
        return command(cmd).trim();
    }

    int port(int i) {
        return o.basePort + i;
    }

    /** Starts every instance, the first alone (it migrates the database), and waits until all are healthy. */
    void startAll() throws IOException, InterruptedException {
        for (int i = 0; i < o.instances; i++) {
            servers.add(start(i, withKey));
            if (i == 0) {
                awaitHealthy(0);
            }
        }
        for (int i = 1; i < o.instances; i++) {
            awaitHealthy(i);
        }
    }

    /**
     * Starts the new version of instance {@code i} beside it, on the spare port ({@code port(instances)}), with the
     * default console settings (no session secret: the others have one, as an older version's random key differs
     * too), and waits until it is healthy (up to 300 s). Answers whether it started; it logs a warning about the keys.
     */
    boolean startReplacement() throws IOException, InterruptedException {
        int spare = o.instances;
        replacement = start(spare, env);
        long until = System.nanoTime() + 300_000_000_000L; // a loaded 2-core machine took 193 s
        while (System.nanoTime() < until && replacement.isAlive()) {
            OjsAnswer a = clients.get(spare).send("GET", "/ojs/v1/health", null, Duration.ofSeconds(30));
            if (!a.failed() && a.status() == 200) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** Whether the replacement's log has the session-key warning naming the setting. */
    boolean replacementWarnedAboutKeys() throws IOException {
        return Files.readString(o.logs.resolve("instance-" + o.instances + ".log"))
                .contains("steadfast.console.session-secret");
    }

    /**
     * The deploy tool's side of a rolling upgrade of instance {@code i}: SIGTERM to the old process; a load balancer
     * keeps sending it requests until its readiness stops answering 200 (polled every 100 ms), then sends them to
     * the others; once the old process has exited, the replacement takes its place. Answers how long the old one
     * took to exit, in ms (-1 when it did not within 60 s).
     */
    long replace(int i) throws InterruptedException {
        Process old = servers.get(i);
        long t = System.nanoTime();
        old.destroy(); // SIGTERM
        while (old.isAlive()) {
            OjsAnswer a = clients.get(i).send("GET", "/ready", null, Duration.ofSeconds(2));
            if (a.failed() || a.status() != 200) {
                downUntil.set(i, Long.MAX_VALUE);
                break;
            }
            Thread.sleep(100);
        }
        boolean exited = old.waitFor(60, TimeUnit.SECONDS);
        long ms = (System.nanoTime() - t) / 1_000_000;
        servers.set(i, replacement);
        clients.set(i, clients.get(o.instances));
        downUntil.set(i, 0);
        return exited ? ms : -1;
    }

    /** SIGKILL of instance {@code i}; requests go to the others until {@link #restart}. */
    void kill(int i) throws InterruptedException {
        Process p = servers.get(i);
        p.destroyForcibly();
        p.waitFor();
        obs.say("SIGKILL instance %d (pid %d)", i, p.pid());
        downUntil.set(i, Long.MAX_VALUE);
    }

    void restart(int i) throws IOException, InterruptedException {
        servers.set(i, start(i, withKey));
        awaitHealthy(i);
        downUntil.set(i, 0);
        obs.say("instance %d started again", i);
    }

    OjsAnswer post(int instance, String path, Object body) {
        return send(instance, "POST", path, body);
    }

    /** Whether instance {@code i} is up (not killed or being replaced). */
    boolean isUp(int i) {
        return downUntil.get(i) <= System.nanoTime();
    }

    OjsAnswer get(int instance, String path) {
        return send(instance, "GET", path, null);
    }

    /** Sends to {@code instance}, or the next one up when it is down; status -1 when the outcome is unknown. */
    private OjsAnswer send(int instance, String method, String path, Object body) {
        int i = instance;
        for (int k = 0; k < o.instances && downUntil.get(i) > System.nanoTime(); k++) {
            i = (i + 1) % o.instances;
        }
        obs.requests.incrementAndGet();
        OjsAnswer a = clients.get(i).send(method, path, body, Duration.ofSeconds(30));
        if (a.failed()) {
            obs.connectionFailed(i, a);
        } else {
            obs.check(a, method, path);
        }
        obs.outcome(!a.failed() && a.status() < 500);
        return a;
    }

    private Process start(int i, Map<String, String> environment) throws IOException {
        List<String> command = new ArrayList<>(List.of("java", o.heap));
        command.addAll(o.jvmOptions);
        command.addAll(List.of("-jar", o.jar));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(environment);
        pb.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port(i)));
        if (o.clock != null) {
            pb.environment().put("STEADFAST_CLOCK_SOURCE", o.clock);
        }
        if (o.skew != null && i == 1) { // instance 1's machine clock is off by --skew (libfaketime)
            pb.environment().put("LD_PRELOAD", FaultsOptions.FAKETIME);
            pb.environment().put("FAKETIME", o.skew);
            pb.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        }
        Path log = o.logs.resolve("instance-" + i + ".log");
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return pb.start();
    }

    /** Polls the health endpoint (not counted in the run's requests) for up to 300 s, as for the replacement. */
    private void awaitHealthy(int i) throws InterruptedException {
        long until = System.nanoTime() + 300_000_000_000L; // a restart on a loaded 2-core machine took 196 s
        while (System.nanoTime() < until) {
            if (!servers.get(i).isAlive()) {
                throw new Exit(2, "faults: instance " + i + " exited; see " + o.logs + "/instance-" + i + ".log");
            }
            OjsAnswer a = clients.get(i).send("GET", "/ojs/v1/health", null, Duration.ofSeconds(30));
            if (!a.failed()) {
                obs.check(a, "GET", "/ojs/v1/health");
                if (a.status() == 200) {
                    return;
                }
            }
            Thread.sleep(250);
        }
        throw new Exit(2, "faults: instance " + i + " did not become healthy");
    }

    /** Restarts PostgreSQL in immediate mode (as after a crash). */
    static void restartDatabase() throws IOException, InterruptedException {
        command(List.of("scripts/local-pg", "restart", "--immediate"));
    }

    static String command(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new Exit(2, "faults: " + String.join(" ", cmd) + " failed");
        }
        return out;
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private synchronized void stopAll() {
        servers.forEach(p -> {
            if (p != null) {
                p.destroy();
            }
        });
        if (replacement != null) {
            replacement.destroy();
        }
    }

    @Override
    public void close() {
        clients.stream().distinct().forEach(OjsClient::close);
        stopAll();
        servers.forEach(p -> {
            try {
                if (p != null) {
                    p.waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (bouncer != null) {
            bouncer.close();
        }
    }
}
