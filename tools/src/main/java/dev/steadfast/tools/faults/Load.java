package dev.steadfast.tools.faults;

import dev.steadfast.tools.ojs.Answers;
import dev.steadfast.tools.ojs.NewJob;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.WorkerCalls;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The load of a fault run. Producers push {@code --jobs} jobs (single pushes, every fifth a batch of 10, with
 * client-chosen ids) spread evenly over {@code --seconds}, each through a random instance. Workers fetch 5 at a
 * time and ACK each job, naming themselves (lease {@code --lease-ms}, no heartbeats). Slow workers take one job,
 * keep it {@code --slow-ms} against a lease of {@code --slow-lease-ms} and then answer; half of them name
 * themselves. A request whose outcome is unknown (no answer, or 503) is sent again; a PUSH with the same ids.
 */
final class Load {

    /** Retries 0.2 s apart, up to 25 attempts: a job failed by a fault comes back soon. */
    private static final NewJob.RetryPolicy RETRY = NewJob.RetryPolicy.fixed(25, "PT0.2S");

    private final FaultsOptions o;
    private final Instances servers;
    private final Observations obs;
    private final String queue;
    final AtomicBoolean stopWorkers = new AtomicBoolean();

    Load(FaultsOptions o, Instances servers, Observations obs, String queue) {
        this.o = o;
        this.servers = servers;
        this.obs = obs;
        this.queue = queue;
    }

    void produce(int n, AtomicInteger next, long loadStart) {
        Random r = new Random(n);
        double perJobNs = o.seconds * 1e9 / o.jobs;
        for (int calls = 0; ; calls++) {
            int size = calls % 5 == 4 ? 10 : 1;
            int first = next.getAndAdd(size);
            if (first >= o.jobs) {
                return;
            }
            size = Math.min(size, o.jobs - first);
            Pace.sleepUntil(loadStart + (long) (first * perJobNs));
            List<NewJob> batch = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                batch.add(new NewJob(uuid7(), "faults.job", List.of(first + i, "x"),
                        new NewJob.Options(queue, RETRY, null, null)));
            }
            push(r, batch);
        }
    }

    /**
     * Pushes single jobs, one every {@code everyMs}, through random instances until {@code stop} is set: the load
     * that keeps running while a fault step (the rolling upgrade, the failover; {@code step} in the jobs' args)
     * takes its time. Answers how many were created.
     */
    int trickle(AtomicBoolean stop, int everyMs, String step) {
        Random r = new Random(-1);
        int created = 0;
        for (int n = 0; !stop.get(); n++) {
            NewJob job = new NewJob(uuid7(), "faults.job", List.of(-1 - n, step),
                    new NewJob.Options(queue, RETRY, null, null));
            if (push(r, List.of(job))) {
                created++;
            }
            Pace.sleep(everyMs);
        }
        return created;
    }

    /** One PUSH (or batch); an unknown outcome (connection lost, 503) is sent again, same ids, until 201 or 409. */
    private boolean push(Random r, List<NewJob> batch) {
        String path = batch.size() == 1 ? "/ojs/v1/jobs" : "/ojs/v1/jobs/batch";
        Object body = batch.size() == 1 ? batch.get(0) : new NewJob.Batch(batch);
        for (int attempt = 0; attempt < 600; attempt++) {
            OjsAnswer a = servers.post(r.nextInt(o.instances), path, body);
            if (a.status() == 201 || a.status() == 409 && a.body().contains("duplicate")) {
                batch.forEach(j -> obs.jobs.enqueued(j.id()));
                return true;
            }
            if (!a.failed() && a.status() != 503) {
                obs.unexpected4xx.incrementAndGet();
                obs.example("push answered " + a.status() + ": " + a.excerpt(300));
                return false;
            }
            Pace.sleep(100);
        }
        return false;
    }

    void work(String worker) {
        serve(worker, 5, o.leaseMs, true, r -> {
            if (o.workMs > 0) {
                Pace.sleep(r.nextInt(o.workMs + 1));
            }
        });
    }

    void slowWork(String worker, boolean named) {
        // no heartbeat: the lease runs out while the job is kept
        serve(worker, 1, o.slowLeaseMs, named, r -> Pace.sleep(o.slowMs));
    }

    /**
     * The worker loop both kinds share: fetch {@code count} jobs leased for {@code leaseMs}, keep each one as
     * {@code keep} says (it may draw on the worker's random), then ACK it; until {@link #stopWorkers} is set.
     */
    private void serve(String worker, int count, int leaseMs, boolean named, Consumer<Random> keep) {
        Random r = new Random(worker.hashCode());
        WorkerCalls.Fetch fetch = WorkerCalls.Fetch.of(queue, count, worker).leasing(leaseMs).waiting(500);
        while (!stopWorkers.get()) {
            long sent = obs.now();
            OjsAnswer f = servers.post(r.nextInt(o.instances), WorkerCalls.FETCH, fetch);
            long received = obs.now();
            if (f.status() != 200) {
                Pace.sleep(50);
                continue;
            }
            for (String id : ids(f)) {
                Hold h = hold(id, worker, named, sent, received, leaseMs);
                keep.accept(r);
                answer(h, r, named);
            }
        }
    }

    private Hold hold(String id, String worker, boolean named, long sent, long received, int leaseMs) {
        Hold h = new Hold(id, worker, named, sent, received, leaseMs);
        obs.holds.add(h);
        obs.jobs.delivered(id);
        return h;
    }

    /** ACK until an answer says what happened; a lost connection or a 503 leaves it unknown, so send again. */
    private void answer(Hold h, Random r, boolean named) {
        WorkerCalls.Ack ack = new WorkerCalls.Ack(h.job, named ? h.worker : null, Map.of("ok", true));
        long giveUp = h.fetchSent + h.lease + 10_000_000_000L;
        while (obs.now() < giveUp) {
            long sent = obs.now();
            OjsAnswer a = servers.post(r.nextInt(o.instances), WorkerCalls.ACK, ack);
            if (a.failed() || a.status() == 503) {
                Pace.sleep(50);
                continue;
            }
            boolean isLate = sent > h.fetchReceived + h.lease; // its lease had certainly run out
            if (a.status() == 200) {
                h.ackSent = sent;
                h.acceptedAck = true;
                obs.jobs.completed(h.job);
            } else if (a.status() != 409) {
                obs.unexpected4xx.incrementAndGet();
                obs.example("ack answered " + a.status() + ": " + a.excerpt(300));
            }
            if (isLate) {
                obs.late[(named ? Observations.LATE_NAMED : Observations.LATE_ANONYMOUS) + (a.status() == 200 ? 1 : 0)]
                        .incrementAndGet();
            }
            return;
        }
    }

    private static Set<String> ids(OjsAnswer fetch) {
        Set<String> out = new LinkedHashSet<>();
        fetch.as(Answers.Jobs.class).ifPresent(j -> j.list().forEach(job -> out.add(job.id())));
        return out;
    }

    static String uuid7() {
        long ms = System.currentTimeMillis();
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long hi = (ms << 16) | 0x7000L | (r.nextInt() & 0x0fff);
        long lo = (r.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(hi, lo).toString();
    }
}
