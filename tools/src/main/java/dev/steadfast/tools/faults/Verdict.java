package dev.steadfast.tools.faults;

import dev.steadfast.tools.fuzz.Fuzzer;
import dev.steadfast.tools.ojs.OjsAnswer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The end of a fault run: every job pushed with success is read back (8 readers, through all instances) and the
 * report printed: jobs lost (not completed at the end), completed twice (two accepted ACKs), overlapping leases
 * (two holds of one job at once), answers 500, other 5xx, answers without the envelope, late answers taken; then
 * {@code RESULT lost=N completed_twice=N overlapping_leases=N answers_500=N other_5xx=N without_envelope=N
 * late_named_accepted=N late_anonymous_accepted=N late_anonymous=N} and the ERROR lines of the servers' logs.
 */
final class Verdict {

    private final FaultsOptions o;
    private final Instances servers;
    private final Observations obs;

    Verdict(FaultsOptions o, Instances servers, Observations obs) {
        this.o = o;
        this.servers = servers;
        this.obs = obs;
    }

    /** Prints the report; answers the exit status (1 when anything went wrong). */
    int report(long eventsMs, MetricsFlood.Result flood, FaultSchedule schedule)
            throws IOException, InterruptedException {
        Fuzzer.Outcome fuzz = schedule.fuzz;
        FaultSchedule.Upgrade upgrade = schedule.upgrade;
        IdleTransaction.Outcome idle = schedule.idle;
        Map<String, String> states = readBack(obs.jobs.enqueuedIds());
        Map<String, Integer> byState = new TreeMap<>();
        states.values().forEach(s -> byState.merge(s, 1, Integer::sum));
        long lost = states.values().stream().filter(s -> !s.equals("completed")).count();
        states.forEach((id, s) -> {
            if (!s.equals("completed")) {
                obs.example("lost: job " + id + " is " + s);
            }
        });
        long twice = obs.jobs.completedTwice();
        long overlapping = overlapping();
        long fuzz5xx = fuzz == null ? -1 : fuzz.fiveXx();
        long fuzzNoEnvelope = fuzz == null ? -1 : fuzz.withoutEnvelope();
        long fuzzOthers = fuzz == null ? -1 : fuzz.goodFailed() + fuzz.ioErrors();
        long f5xx = Math.max(0, fuzz5xx), fNoEnv = Math.max(0, fuzzNoEnvelope);
        long[] late = {obs.late[0].get(), obs.late[1].get(), obs.late[2].get(), obs.late[3].get()};
        System.out.println();
        System.out.printf(Locale.ROOT, "faults: %d instances, %d jobs over %d s by %d producers; %d workers (lease %d ms)"
                        + " and %d slow workers (lease %d ms, %d ms per job, no heartbeat); fuzz %d requests%s%n",
                o.instances, o.jobs, o.seconds, o.producers, o.workers, o.leaseMs, o.slowWorkers, o.slowLeaseMs,
                o.slowMs, o.fuzzRequests,
                (o.skew == null ? "" : "; instance 1's clock " + o.skew) + (o.clock == null ? "" : "; clock " + o.clock));
        obs.timeline.forEach(l -> System.out.println("  " + l));
        System.out.printf("jobs created %d, final states %s, deliveries %d, jobs delivered more than once %d%n",
                obs.jobs.enqueuedCount(), byState, obs.jobs.deliveries(), obs.jobs.redelivered());
        System.out.printf("requests %d: 503 %d (database away, retried), connection failures %d (killed instance,"
                + " retried), unexpected 4xx %d%n", obs.requests.get(), obs.answers503.get(),
                obs.connectionFailures.get(), obs.unexpected4xx.get());
        obs.failureKinds.forEach((k, v) -> System.out.println("  connection failures: " + v + " x " + k));
        System.out.printf("late answers (lease certainly over): with worker_id %d sent, %d accepted; without worker_id"
                        + " %d sent, %d accepted (taken as the current holder's answer)%n",
                late[0] + late[1], late[1], late[2] + late[3], late[3]);
        System.out.printf("events shared across instances (also just after a join): %s%n",
                eventsMs >= 0 ? "yes" : "NO");
        System.out.println(flood == null ? "metrics flood: not run (--flood 0)" : flood.line());
        boolean upgradeTried = o.instances > 1 && o.upgrade;
        System.out.println(upgrade != null ? upgrade.line()
                : upgradeTried ? "rolling upgrade: its step FAILED (see the examples)" : "rolling upgrade: not run");
        System.out.println(idle != null ? idle.line()
                : o.idleTransaction ? "idle transaction: its step FAILED (see the examples)" : "idle transaction: not run");
        if (o.failover != null) {
            System.out.println(schedule.failover != null ? schedule.failover.line()
                    : "failover: its step FAILED (see the examples)");
        }
        System.out.printf("RESULT lost=%d completed_twice=%d overlapping_leases=%d answers_500=%d other_5xx=%d"
                        + " without_envelope=%d late_named_accepted=%d late_anonymous_accepted=%d late_anonymous=%d%n",
                lost, twice, overlapping, obs.answers500.get() + (fuzz5xx > 0 ? f5xx : 0), obs.answersOther5xx.get(),
                obs.noEnvelope.get() + fNoEnv, late[1], late[3], late[2] + late[3]);
        synchronized (obs.examples) {
            obs.examples.stream().limit(20).forEach(e -> System.out.println("  " + e));
        }
        System.out.println("server logs (" + o.logs + "/instance-*.log): " + errorLines() + " ERROR lines");
        boolean bad = lost + twice + overlapping + obs.answers500.get() + obs.answersOther5xx.get()
                + obs.noEnvelope.get() + f5xx + fNoEnv + late[1] + obs.unexpected4xx.get() + Math.max(0, fuzzOthers) > 0
                || eventsMs < 0 || o.fuzzRequests > 0 && fuzz5xx < 0 || flood != null && !flood.ok()
                || upgradeTried && (upgrade == null || !upgrade.ok())
                || o.idleTransaction && (idle == null || !idle.ok())
                || o.failover != null && (schedule.failover == null || !schedule.failover.served());
        return bad ? 1 : 0;
    }

    /** Every job's state as INFO answers it now ("missing" for 404, "unreadable" without an answer). */
    private Map<String, String> readBack(List<String> ids) throws InterruptedException {
        Map<String, String> states = new ConcurrentHashMap<>();
        AtomicInteger cursor = new AtomicInteger();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread r = new Thread(() -> {
                for (int i = cursor.getAndIncrement(); i < ids.size(); i = cursor.getAndIncrement()) {
                    OjsAnswer a = null;
                    for (int k = 0; k < 20 && (a == null || a.failed() || a.status() >= 500); k++) {
                        a = servers.get(i % o.instances, "/ojs/v1/jobs/" + ids.get(i));
                    }
                    states.put(ids.get(i), a.failed() ? "unreadable" : a.status() == 404 ? "missing"
                            : a.find("state").orElse("status " + a.status()));
                }
            }, "reader-" + t);
            r.start();
            readers.add(r);
        }
        for (Thread r : readers) {
            r.join();
        }
        return states;
    }

    /** Jobs with two holds at once (one example each). */
    private long overlapping() {
        Map<String, List<Hold>> byJob = new HashMap<>();
        obs.holds.forEach(h -> byJob.computeIfAbsent(h.job, k -> new ArrayList<>()).add(h));
        long overlapping = 0;
        for (List<Hold> hs : byJob.values()) {
            Hold[] pair = overlap(hs);
            if (pair != null) {
                overlapping++;
                Hold a = pair[0], b = pair[1];
                obs.example(String.format(Locale.ROOT, "overlap: job %s held by %s [%.3f, %.3f] and %s [%.3f, %.3f]",
                        a.job, a.worker, a.start() / 1e9, a.end() / 1e9, b.worker, b.start() / 1e9, b.end() / 1e9));
            }
        }
        return overlapping;
    }

    private static Hold[] overlap(List<Hold> hs) {
        for (int i = 0; i < hs.size(); i++) {
            for (int j = i + 1; j < hs.size(); j++) {
                if (hs.get(i).overlaps(hs.get(j))) {
                    return new Hold[] {hs.get(i), hs.get(j)};
                }
            }
        }
        return null;
    }

    /** ERROR lines in the instances' logs: plain text (" ERROR ") or the production JSON ("level":"ERROR"). */
    private long errorLines() throws IOException {
        long n = 0;
        for (int i = 0; i <= o.instances; i++) { // the last: the rolling upgrade's new instance
            Path p = o.logs.resolve("instance-" + i + ".log");
            if (Files.exists(p)) {
                try (var lines = Files.lines(p)) {
                    n += lines.filter(l -> l.contains(" ERROR ") || l.contains("\"level\":\"ERROR\"")).count();
                }
            }
        }
        return n;
    }
}
