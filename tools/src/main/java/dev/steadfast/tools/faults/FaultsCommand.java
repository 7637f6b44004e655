package dev.steadfast.tools.faults;

import dev.steadfast.tools.Exit;
import dev.steadfast.tools.ojs.NewJob;
import dev.steadfast.tools.ojs.OjsAnswer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code faults}: runs several instances of the packaged server on one PostgreSQL database under producers and
 * workers, breaks things while they run, and counts what went wrong. Run from the repository root after
 * {@code ./mvnw package}.
 *
 * <p>What happens: {@code --instances} servers start ({@link Instances}), instance 0 alone first; a job pushed
 * through instance 0 the moment the others are up (events at join: instance 0 was alone a moment ago) must show in
 * instance 1's events, and one pushed through instance 1 in instance 0's; the metrics flood ({@link MetricsFlood}).
 * Then the load ({@link Load}) and the faults ({@link FaultSchedule}: the fuzzer, SIGKILL of instance 0 and its
 * restart, an idle transaction holding the xmin horizon, an immediate PostgreSQL restart, a rolling upgrade of
 * instance 0). When the producers are done, the
 * workers drain the queue (up to {@code --drain-seconds}), and {@link Verdict} reads every job back and reports.
 * Exit 1 when a job was lost, completed twice or held twice at once, an answer was 500, another 5xx but 503, or
 * without the envelope, a late named answer was taken, events were not shared, the flood kept a real route out of
 * the metrics, the upgraded instance was not healthy or requests failed for more than 10 s, or an instance did not
 * show the idle transaction in its readiness details and metrics within a minute; 2 for usage errors.
 *
 * <p>{@code --skew +20s} runs instance 1 with its machine clock off by that much (libfaketime): with the
 * server's default database clock nothing changes; with {@code --clock system} leases are judged on two clocks.
 *
 * <p>{@code --pgbouncer PORT} puts Debian's PgBouncer in transaction mode between the instances' pool (and Flyway)
 * and PostgreSQL, with the settings of docs/operations/poolers.md ({@link Bouncer}); the session connections go
 * straight to PostgreSQL. The database restart then happens behind PgBouncer.
 */
public final class FaultsCommand {

    private FaultsCommand() {
    }

    public static int run(String[] args) throws IOException, InterruptedException {
        FaultsOptions o = FaultsOptions.parse(args);
        if (!Files.exists(Path.of("scripts/local-pg")) || !Files.exists(Path.of(o.jar))) {
            throw new Exit(2, "faults: run from the repository root after ./mvnw package (needs scripts/local-pg and "
                    + o.jar + ")");
        }
        Files.createDirectories(o.logs);
        try (var old = Files.list(o.logs)) {
            for (Path f : old.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
                Files.delete(f);
            }
        }
        Observations obs = new Observations();
        String queue = "faults-" + System.currentTimeMillis();
        try (Instances servers = new Instances(o, obs)) {
            servers.startAll();
            obs.say("%d instances up on ports %d-%d, database %s", o.instances, o.basePort,
                    o.basePort + o.instances - 1, o.db);
            long joinMs = o.instances < 2 ? 0 : eventsShared(servers, obs, queue + "-join", 0, 1);
            OjsAnswer reset = servers.post(0, "/ojs/v1/admin/reset", "{}");
            if (reset.status() != 200) {
                throw new Exit(2, "faults: reset failed: " + (reset.failed() ? "no answer" : reset.status() + " "
                        + reset.body()));
            }
            long eventsMs = o.instances < 2 ? 0 : eventsShared(servers, obs, queue + "-marker", 1, 0);
            MetricsFlood.Result flood = o.flood > 0 ? MetricsFlood.run(o, servers, queue + "-flood") : null;
            if (flood != null) {
                obs.say("%s", flood.line());
            }
            Load load = new Load(o, servers, obs, queue);
            FaultSchedule schedule = new FaultSchedule(o, servers, obs, load);
            runLoad(o, servers, obs, queue, load, schedule);
            return new Verdict(o, servers, obs).report(Math.min(joinMs, eventsMs), flood, schedule);
        }
    }

    private static void runLoad(FaultsOptions o, Instances servers, Observations obs, String queue, Load load,
                                FaultSchedule schedule) throws InterruptedException {
        long loadStart = System.nanoTime();
        AtomicInteger next = new AtomicInteger();
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < o.producers; p++) {
            int n = p;
            producers.add(start("producer-" + p, () -> load.produce(n, next, loadStart)));
        }
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < o.workers; w++) {
            String name = "worker-" + w;
            workers.add(start(name, () -> load.work(name)));
        }
        for (int w = 0; w < o.slowWorkers; w++) {
            String name = "slow-worker-" + w;
            boolean named = w % 2 == 1;
            workers.add(start(name, () -> load.slowWork(name, named)));
        }
        Thread faults = start("faults", () -> schedule.run(loadStart));
        for (Thread p : producers) {
            p.join();
        }
        obs.say("producers done: %d jobs created", obs.jobs.enqueuedCount());
        faults.join();
        long drainUntil = System.nanoTime() + o.drainSeconds * 1_000_000_000L;
        int completed = 0;
        while (System.nanoTime() < drainUntil) {
            completed = completedCount(o, servers, queue);
            if (completed >= obs.jobs.enqueuedCount()) {
                break;
            }
            Thread.sleep(1000);
        }
        load.stopWorkers.set(true);
        for (Thread w : workers) {
            w.join(30_000);
        }
        obs.say("drained: %d of %d completed by the count", completed, obs.jobs.enqueuedCount());
    }

    /** A job pushed through {@code from} shows up in {@code to}'s events; answers the delay in ms, -1 if not. */
    private static long eventsShared(Instances servers, Observations obs, String queue, int from, int to) {
        String id = Load.uuid7();
        long t = System.nanoTime();
        servers.post(from, "/ojs/v1/jobs", new NewJob(id, "faults.marker", List.of(),
                new NewJob.Options(queue, null, null, null)));
        while (System.nanoTime() - t < 10_000_000_000L) {
            OjsAnswer a = servers.get(to, "/ojs/v1/events?queues=" + queue + "&limit=10");
            if (!a.failed() && a.body().contains(id)) {
                long ms = (System.nanoTime() - t) / 1_000_000;
                obs.say("events: a push through instance %d was listed by instance %d after %d ms", from, to, ms);
                return ms;
            }
            Pace.sleep(20);
        }
        obs.say("events: a push through instance %d was NOT listed by instance %d within 10 s", from, to);
        return -1;
    }

    /** The queue's completed jobs by the server's count (the first instance that answers), -1 if none does. */
    private static int completedCount(FaultsOptions o, Instances servers, String queue) {
        for (int i = 0; i < o.instances; i++) {
            OjsAnswer a = servers.get(i, "/ojs/v1/admin/jobs/count?queue=" + queue);
            if (a.status() == 200) {
                var n = a.find("completed");
                if (n.isPresent()) {
                    return Integer.parseInt(n.get());
                }
            }
        }
        return -1;
    }

    private static Thread start(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.start();
        return t;
    }
}
