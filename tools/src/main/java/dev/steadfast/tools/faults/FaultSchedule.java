package dev.steadfast.tools.faults;

import dev.steadfast.tools.fuzz.Fuzzer;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The faults, at fixed points of the load's time: from the start, an idle transaction ({@link IdleTransaction})
 * holds the xmin horizon until every instance shows it (at most a minute); at 10% the fuzzer starts against the last instance (its
 * output in {@code <logs>/fuzz.log}); at 35% instance 0 is killed with SIGKILL, at 50% started again; once the
 * fuzzer and the idle transaction are done (neither must meet the database restart), at 70% PostgreSQL restarts in immediate
 * mode; the rolling upgrade of instance 0 ({@link #upgrade}): its new instance starts at 10%, beside the others
 * under load, and the old one gets SIGTERM at 75% (or once the new one is healthy, if later), once the cluster
 * serves again after the database restart, while a producer keeps pushing (20 jobs a second, whether or not the
 * main producers are done). With {@code --failover} the primary of the pg_auto_failover formation is failed over
 * at 70% instead of the PostgreSQL restart ({@link #failover}). A step that fails counts as a failure of the run.
 */
final class FaultSchedule {

    private final FaultsOptions o;
    private final Instances servers;
    private final Observations obs;
    private final Load load;
    /** The fuzzer's counts; null when it did not run or did not finish. */
    volatile Fuzzer.Outcome fuzz;
    /** The idle transaction's outcome; null when it was not tried or its step failed. */
    volatile IdleTransaction.Outcome idle;
    /** The rolling upgrade's outcome; null when it was not tried (one instance) or its step failed. */
    volatile Upgrade upgrade;

    /**
     * A rolling upgrade as a deploy tool runs it: a new instance with the default console settings started beside
     * the old ones while the load runs, its health awaited, then the old one stopped with SIGTERM.
     *
     * @param healthy    whether the new instance became healthy (within 300 s)
     * @param startMs    how long it took to become healthy
     * @param warned     whether it logged the session-key warning (the others sign with a configured key)
     * @param exitMs     how long the old one took to exit after SIGTERM (-1: not within 60 s)
     * @param longestGap the longest time during the upgrade in which requests failed and none succeeded (ms)
     * @param failures   requests without an answer during the upgrade
     * @param pushed     jobs created by the producer that ran through the upgrade
     */
    record Upgrade(boolean healthy, long startMs, boolean warned, long exitMs, long longestGap, long failures,
                   int pushed) {
        boolean ok() {
            return healthy && exitMs >= 0 && longestGap <= 10_000 && pushed > 0;
        }

        String line() {
            return String.format("rolling upgrade: new instance (default console settings) %s after %d ms%s; the old"
                            + " one exited %d ms after SIGTERM; longest stretch of failing requests %d ms;"
                            + " connection failures during the upgrade %d; jobs pushed meanwhile %d",
                    healthy ? "healthy" : "NOT healthy", startMs, warned ? ", with the session-key warning" : "",
                    exitMs, longestGap, failures, pushed);
        }
    }

    /** The failover's outcome ({@code --failover}); null when it was not tried or its step failed. */
    volatile Failover failover;

    /**
     * The primary failed over under load ({@code --failover}), as seen by the cluster's clients.
     *
     * @param kill        SIGKILL of the primary rather than {@code pg_autoctl perform failover}
     * @param script      the line of {@code scripts/failover-cluster failover}: the nodes and when the new primary
     *                    accepted writes
     * @param served      whether a request succeeded after the script saw the new primary accept writes (within
     *                    120 s)
     * @param outageMs    the longest stretch in which requests failed and none succeeded, from the command until 2 s
     *                    after the cluster served again
     * @param answers503  503 answers meanwhile (the database away, retried)
     * @param answers500  500 answers meanwhile
     * @param failures    requests without an answer meanwhile
     * @param pushed      jobs pushed by the failover's own producer (one every 50 ms, from 1 s before the command)
     */
    record Failover(boolean kill, String script, boolean served, long outageMs, long answers503, long answers500,
                    long failures, int pushed) {
        String line() {
            return String.format("failover (%s): %s; %s; longest stretch of failing requests %d ms; meanwhile %d x"
                            + " 503, %d x 500, %d without an answer; jobs pushed meanwhile %d",
                    kill ? "SIGKILL of the primary" : "pg_autoctl perform failover",
                    script.replaceFirst("^failover: ", ""), served ? "the cluster served on the new primary"
                            : "NO request succeeded within 120 s after that", outageMs, answers503, answers500,
                    failures, pushed);
        }
    }

    FaultSchedule(FaultsOptions o, Instances servers, Observations obs, Load load) {
        this.o = o;
        this.servers = servers;
        this.obs = obs;
        this.load = load;
    }

    void run(long loadStart) {
        try {
            Thread idler = null;
            if (o.idleTransaction) {
                idler = new Thread(this::idleTransaction, "idle-transaction");
                idler.start();
            }
            Thread fuzzer = null;
            Pace.sleepUntil(loadStart + (long) (o.seconds * 0.10e9));
            if (o.fuzzRequests > 0) {
                int target = o.instances - 1;
                obs.say("fuzz: %d malformed and well-formed requests against instance %d", o.fuzzRequests, target);
                fuzzer = new Thread(() -> fuzz(target), "fuzz");
                fuzzer.start();
            }
            Thread replacement = null;
            if (o.instances > 1 && o.upgrade) {
                obs.say("rolling upgrade: starting a new instance beside instance 0");
                replacement = new Thread(this::startReplacement, "replacement");
                replacement.start();
            }
            if (o.kill && o.instances > 1) {
                try { // a failed restart is the run's failure, but the later faults still run
                    Pace.sleepUntil(loadStart + (long) (o.seconds * 0.35e9));
                    servers.kill(0);
                    Pace.sleepUntil(loadStart + (long) (o.seconds * 0.50e9));
                    servers.restart(0);
                } catch (Exception e) {
                    obs.example("fault step failed: " + e);
                    obs.answersOther5xx.incrementAndGet();
                }
            }
            if (fuzzer != null) {
                fuzzer.join();
                obs.say("fuzz: %s", fuzz == null ? "no RESULT (see " + o.logs + "/fuzz.log)" : fuzz.resultLine());
            }
            if (idler != null) {
                idler.join();
            }
            if (o.failover != null) {
                Pace.sleepUntil(loadStart + (long) (o.seconds * 0.70e9));
                failover = failover(o.failover.equals("kill"));
                obs.say("%s", failover.line());
            } else if (o.restartDb) {
                Pace.sleepUntil(loadStart + (long) (o.seconds * 0.70e9));
                obs.say("restarting PostgreSQL (immediate)");
                long t = obs.now();
                Instances.restartDatabase();
                obs.say("PostgreSQL back after %.1f s", (obs.now() - t) / 1e9);
            }
            if (replacement != null) {
                Pace.sleepUntil(loadStart + (long) (o.seconds * 0.75e9));
                replacement.join();
                upgrade = upgrade();
                obs.say("%s", upgrade.line());
            }
        } catch (Exception e) {
            obs.example("fault step failed: " + e);
            obs.answersOther5xx.incrementAndGet(); // counted as a failure of the run
        }
    }

    private volatile boolean replacementHealthy;
    private volatile long replacementStartMs;

    private void startReplacement() {
        long t = System.nanoTime();
        try {
            replacementHealthy = servers.startReplacement();
        } catch (Exception e) {
            obs.example("the rolling upgrade's new instance could not be started: " + e);
        }
        replacementStartMs = (System.nanoTime() - t) / 1_000_000;
        obs.say("rolling upgrade: new instance %s after %d ms", replacementHealthy ? "healthy" : "NOT healthy",
                replacementStartMs);
    }

    private Upgrade upgrade() throws Exception {
        if (!replacementHealthy) {
            return new Upgrade(false, replacementStartMs, false, -1, 0, 0, 0);
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger pushed = new AtomicInteger();
        Thread producer = new Thread(() -> pushed.set(load.trickle(stop, 50, "upgrade")), "upgrade-producer");
        producer.start();
        try {
            // a deploy tool does not start while the database is away: wait until the cluster serves again
            if (!obs.awaitServing(60_000)) {
                obs.say("rolling upgrade: the cluster did not serve within 60 s; upgrading anyway");
            }
            obs.longestFailingAndRestart();
            long failures = obs.connectionFailures.get();
            obs.say("rolling upgrade: SIGTERM to instance 0");
            long exitMs = servers.replace(0);
            Pace.sleep(2000); // requests keep flowing through the new instance
            long gap = obs.longestFailingAndRestart() / 1_000_000;
            long failed = obs.connectionFailures.get() - failures;
            stop.set(true);
            producer.join();
            return new Upgrade(true, replacementStartMs, servers.replacementWarnedAboutKeys(), exitMs, gap, failed,
                    pushed.get());
        } finally {
            stop.set(true);
        }
    }

    private Failover failover(boolean kill) throws Exception {
        // pushes go on through the failover whether or not the main producers are done: they must all be completed
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger pushed = new AtomicInteger();
        Thread producer = new Thread(() -> pushed.set(load.trickle(stop, 50, "failover")), "failover-producer");
        producer.start();
        try {
            Pace.sleep(1000);
            obs.say(kill ? "failover: SIGKILL of the primary" : "failover: pg_autoctl perform failover");
            obs.longestFailingAndRestart();
            long s503 = obs.answers503.get();
            long s500 = obs.answers500.get();
            long failures = obs.connectionFailures.get();
            String script = Instances.failover(kill);
            obs.say("%s", script);
            boolean served = obs.awaitServing(120_000);
            Pace.sleep(2000); // a failing stretch that began before the first success after the switch ends meanwhile
            long outageMs = obs.longestFailingAndRestart() / 1_000_000;
            stop.set(true);
            producer.join();
            return new Failover(kill, script, served, outageMs, obs.answers503.get() - s503,
                    obs.answers500.get() - s500, obs.connectionFailures.get() - failures, pushed.get());
        } finally {
            stop.set(true);
        }
    }

    private void idleTransaction() {
        try {
            idle = IdleTransaction.run(servers, o.instances, servers.databaseUrl(), o.logs, obs);
        } catch (Exception e) {
            obs.example("idle transaction failed: " + e);
        }
    }

    private void fuzz(int instance) {
        try (PrintStream log = new PrintStream(new FileOutputStream(o.logs.resolve("fuzz.log").toFile()), true,
                StandardCharsets.UTF_8)) {
            fuzz = new Fuzzer(new Fuzzer.Options(servers.port(instance), servers.token(), o.fuzzRequests, 8, 1, 300))
                    .run(log);
        } catch (Exception e) {
            obs.example("fuzz failed: " + e);
        }
    }
}
