package dev.steadfast.tools.bench;

import dev.steadfast.tools.ojs.Answers;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.OjsClient;
import dev.steadfast.tools.ojs.WorkerCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;

/**
 * A worker loop for W2/W4: a blocking FETCH (with wait_ms when > 0), then per-job ACK/FAIL requests (at most
 * {@code ackConc} in flight, all answered before the next FETCH) or one batch-ACK request for the whole fetch.
 * A job delivered more often than expected (once; twice with {@code failOnce}) is counted, not answered.
 */
final class WorkerLoop {

    static final WorkerCalls.JobError FLAKY = new WorkerCalls.JobError("Flaky", "first attempt fails");
    private static final Set<String> TERMINAL = Set.of("discarded", "dead", "completed", "cancelled");

    /** How the loops of one run behave. */
    record Shape(boolean failOnce, boolean batchAck, int fetchCount, int ackConc, int waitMs) {
    }

    private final OjsClient client;
    private final String workerId;
    private final WorkerCalls.Fetch fetch;
    private final Progress p;
    private final Shape shape;
    private final long deadline;
    private final Duration fetchTimeout;
    private final Semaphore inFlight;

    private WorkerLoop(OjsClient client, int index, String queue, Progress p, Shape shape, long deadline) {
        this.client = client;
        this.workerId = "bench-" + ProcessHandle.current().pid() + "-" + queue + "-w" + index;
        this.fetch = WorkerCalls.Fetch.of(queue, shape.fetchCount(), workerId)
                .waiting(shape.waitMs() > 0 ? shape.waitMs() : null);
        this.p = p;
        this.shape = shape;
        this.deadline = deadline;
        this.fetchTimeout = Duration.ofMillis(shape.waitMs() + 30_000L);
        this.inFlight = new Semaphore(shape.ackConc());
    }

    /** Starts {@code n} loops on daemon threads (a long-poll FETCH may still be held when the run is done). */
    static List<Thread> start(OjsClient client, int n, String queue, Progress p, Shape shape, long deadline) {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            WorkerLoop loop = new WorkerLoop(client, i, queue, p, shape, deadline);
            Thread t = new Thread(loop::run, "loop-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        return threads;
    }

    /** Waits up to {@code millis} in total for the loops; loops still in a held fetch are left behind. */
    static void join(List<Thread> threads, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        for (Thread t : threads) {
            t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
        }
    }

    private void run() {
        try {
            loop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() throws InterruptedException {
        int errorsInARow = 0, emptyInARow = 0;
        while (System.nanoTime() < deadline && errorsInARow < 20 && !p.settled()) {
            OjsAnswer a = client.post(WorkerCalls.FETCH, fetch, fetchTimeout);
            p.fetchRequests.incrementAndGet();
            if (a.status() != 200) {
                p.failed(a);
                errorsInARow++;
                Thread.sleep(10);
                continue;
            }
            errorsInARow = 0;
            List<Answers.Job> jobs = a.as(Answers.Jobs.class).map(Answers.Jobs::list).orElse(List.of());
            if (jobs.isEmpty()) {
                if (p.settled()) {
                    return;
                }
                p.emptyFetches.incrementAndGet();
                // a held (long-poll) fetch may ask again at once; otherwise back off 1..64 ms
                if (shape.waitMs() == 0 || a.nanos() < shape.waitMs() * 500_000L) {
                    Thread.sleep(1L << Math.min(6, emptyInARow++));
                }
                continue;
            }
            emptyInARow = 0;
            List<Item> items = new ArrayList<>();
            for (Answers.Job j : jobs) {
                if (j.id() == null) {
                    continue;
                }
                int seen = p.jobs.delivered(j.id());
                if (seen > (shape.failOnce() ? 2 : 1)) {
                    continue; // a duplicate delivery: counted, not handled
                }
                int attempt = j.attempt() != null ? j.attempt() : seen;
                items.add(new Item(j.id(), shape.failOnce() && attempt <= 1));
            }
            if (items.isEmpty()) {
                continue;
            }
            if (shape.batchAck()) {
                sendBatch(items);
            } else {
                sendEach(items);
            }
        }
    }

    /** One fetched job and what to answer: FAIL (first attempt of a fail-once run) or ACK. */
    private record Item(String id, boolean fail) {
    }

    private void sendEach(List<Item> items) throws InterruptedException {
        for (Item item : items) {
            inFlight.acquire();
            String path = item.fail() ? WorkerCalls.NACK : WorkerCalls.ACK;
            Object body = item.fail() ? new WorkerCalls.Nack(item.id(), workerId, FLAKY)
                    : new WorkerCalls.Ack(item.id(), workerId, Map.of());
            client.postAsync(path, body).thenAccept(a -> {
                try {
                    if (a.status() != 200) {
                        p.failed(a);
                        p.gaveUp.incrementAndGet();
                    } else {
                        p.ackLatency.record(a.nanos());
                        settle(item, a.as(Answers.Outcome.class).map(Answers.Outcome::state).orElse(null));
                    }
                } finally {
                    inFlight.release();
                }
            });
        }
        inFlight.acquire(shape.ackConc());
        inFlight.release(shape.ackConc());
    }

    private void sendBatch(List<Item> items) {
        List<WorkerCalls.BatchAck.Item> acks = new ArrayList<>(items.size());
        for (Item item : items) {
            acks.add(item.fail() ? new WorkerCalls.BatchAck.Item(item.id(), null, FLAKY)
                    : new WorkerCalls.BatchAck.Item(item.id(), Map.of(), null));
        }
        OjsAnswer a = client.post(WorkerCalls.BATCH_ACK, new WorkerCalls.BatchAck(workerId, acks));
        if (a.status() != 200) {
            p.failed(a);
            p.gaveUp.addAndGet(items.size());
            return;
        }
        p.ackLatency.record(a.nanos());
        Map<String, Answers.BatchOutcome.Item> byId = new HashMap<>();
        for (Answers.BatchOutcome.Item r : a.as(Answers.BatchOutcome.class).map(Answers.BatchOutcome::list)
                .orElse(List.of())) {
            if (r.jobId() != null) {
                byId.put(r.jobId(), r);
            }
        }
        for (Item item : items) {
            Answers.BatchOutcome.Item r = byId.get(item.id());
            if (r == null || !Boolean.TRUE.equals(r.ok())) {
                p.failed("batch ACK item " + item.id() + ": " + (r == null ? "missing from the answer" : "ok=" + r.ok())
                        + " in " + a.excerpt(300));
                p.gaveUp.incrementAndGet();
            } else {
                settle(item, r.state());
            }
        }
    }

    /** Books an answered ACK (completed) or FAIL (must come back unless its state is terminal). */
    private void settle(Item item, String state) {
        if (!item.fail()) {
            p.complete(item.id());
        } else if (state != null && TERMINAL.contains(state)) {
            p.failed("FAIL of " + item.id() + " left it " + state);
            p.gaveUp.incrementAndGet();
        }
    }
}
