package dev.steadfast.tools.bench;

import static dev.steadfast.tools.bench.Bench.secs;

import dev.steadfast.tools.measure.ServerMemory;
import dev.steadfast.tools.ojs.Answers;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.WorkerCalls;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The classic phases ({@code --phases}): enqueue ({@code --connections} single POSTs in flight until
 * {@code --jobs}), batch-enqueue ({@code --batch} jobs per POST; skipped when the server answers the first with
 * 404/405), process ({@code --workers} loops: a blocking FETCH of {@code --fetch-count}, then the ACKs,
 * {@code --ack-concurrency} in flight, all answered before the next FETCH); and the warm-up every run starts with.
 * The last line: {@code RESULT enqueue=N/s batch_enqueue=N/s process=N/s ack_p99=Nms rss=...}.
 */
final class Phases {

    private final Bench b;
    private final BenchOptions opt;
    private boolean failed;

    Phases(Bench bench) {
        this.b = bench;
        this.opt = bench.opt();
    }

    int run() throws InterruptedException {
        ServerMemory before = ServerMemory.read(b.serverPid(), System.out);
        System.out.printf(Locale.ROOT, "bench: url=%s queue=%s jobs=%d connections=%d workers=%d"
                + " fetch-count=%d ack-concurrency=%d batch=%d%n", opt.url, opt.queue, opt.jobs,
                opt.connections, opt.workers, opt.fetchCount, opt.ackConcurrency, opt.batch);
        warmup();
        PhaseResult enqueue = null, batch = null;
        ProcessResult process = null;
        int enqueued = 0;
        if (opt.phases.contains("enqueue")) {
            enqueue = report(enqueue("enqueue", opt.queue, opt.jobs));
            enqueued += enqueue.jobs;
        }
        if (opt.phases.contains("batch")) {
            batch = report(batch(opt.queue, opt.jobs));
            enqueued += batch.jobs;
        }
        if (opt.phases.contains("process")) {
            process = report(process("process", opt.queue, opt.processOnly() ? opt.jobs : enqueued));
        }
        ServerMemory after = ServerMemory.read(b.serverPid(), System.out);
        if (before != null && after != null) {
            System.out.println(after.line(before));
        }
        System.out.println(summary(enqueue, batch, process, after));
        return failed ? 1 : 0;
    }

    /** Enqueues and processes --warmup jobs on a side queue so the JIT and connections are warm. */
    void warmup() throws InterruptedException {
        if (opt.warmup == 0) {
            return;
        }
        long t0 = System.nanoTime();
        String queue = opt.queue + "-warmup";
        PhaseResult e = enqueue("warmup", queue, opt.warmup);
        ProcessResult p = process("warmup", queue, e.jobs);
        System.out.printf(Locale.ROOT, "%-14s %d jobs enqueued, %d acked in %.2fs (not counted)%n",
                "warmup", e.jobs, p.jobs, secs(System.nanoTime() - t0));
        Stream.concat(e.warnings().stream(), p.warnings().stream()).forEach(w -> System.out.println("note: " + w));
    }

    private PhaseResult enqueue(String name, String queue, int jobs) throws InterruptedException {
        PhaseResult r = new PhaseResult(name, jobs, b.serverPid());
        AtomicInteger next = new AtomicInteger();
        RequestDriver.sendAll(b.client(), r, opt.timeout, opt.connections, () -> {
            int i = next.getAndIncrement();
            return i < jobs ? i : -1;
        }, i -> new RequestDriver.Req(Bench.PUSH, b.job(queue, i)), (a, i) -> {
            r.latency.record(a.nanos());
            if (a.status() == 201) {
                r.addJobs(1);
            } else {
                r.error(a);
            }
        });
        r.finish(next.get() < jobs);
        return r;
    }

    private PhaseResult batch(String queue, int jobs) throws InterruptedException {
        PhaseResult r = new PhaseResult("batch-enqueue", jobs, b.serverPid());
        int firstSize = Math.min(opt.batch, jobs);
        OjsAnswer first = b.client().post(Bench.BATCH_PUSH, b.batch(queue, jobs, firstSize));
        if (first.status() == 404 || first.status() == 405) {
            r.skipped = "POST /ojs/v1/jobs/batch returned " + first.status() + ", batch enqueue not supported";
            return r;
        }
        recordBatch(r, first, firstSize);
        AtomicInteger next = new AtomicInteger(firstSize);
        RequestDriver.sendAll(b.client(), r, opt.timeout, opt.connections, () -> {
            int start = next.getAndAdd(opt.batch);
            return start < jobs ? start : -1;
        }, start -> new RequestDriver.Req(Bench.BATCH_PUSH, b.batch(queue, jobs + start, batchSize(start, jobs))),
           (a, start) -> recordBatch(r, a, batchSize(start, jobs)));
        r.finish(next.get() < jobs);
        return r;
    }

    private int batchSize(int start, int jobs) {
        return Math.min(opt.batch, jobs - start);
    }

    private static void recordBatch(PhaseResult r, OjsAnswer a, int size) {
        r.latency.record(a.nanos());
        if (a.status() != 201) {
            r.error(a);
            return;
        }
        Answers.Jobs answer = a.as(Answers.Jobs.class).orElse(new Answers.Jobs(null, null));
        int ids = answer.list().size();
        r.addJobs(ids > 0 ? ids : answer.count() != null ? answer.count() : size);
    }

    /** W worker loops fetch + ack until {@code expected} jobs are acked (or timeout). */
    private ProcessResult process(String name, String queue, int expected) throws InterruptedException {
        ProcessResult r = new ProcessResult(name, expected, b.serverPid());
        long deadline = r.deadline(opt.timeout);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < opt.workers; w++) {
            Worker worker = new Worker(w, queue, r, deadline);
            Thread t = new Thread(worker::run, "worker-" + w);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        r.finish(System.nanoTime() > deadline);
        return r;
    }

    /** One worker loop of the process phase: blocking fetch, then concurrent acks. */
    private final class Worker {
        private final String workerId;
        private final WorkerCalls.Fetch fetch;
        private final ProcessResult r;
        private final long deadline;
        private final Semaphore acksInFlight = new Semaphore(opt.ackConcurrency);

        Worker(int index, String queue, ProcessResult r, long deadline) {
            this.workerId = "bench-" + ProcessHandle.current().pid() + "-w" + index;
            this.fetch = WorkerCalls.Fetch.of(queue, opt.fetchCount, workerId);
            this.r = r;
            this.deadline = deadline;
        }

        void run() {
            try {
                loop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void loop() throws InterruptedException {
            int errorsInARow = 0, emptyInARow = 0;
            while (System.nanoTime() < deadline && errorsInARow < 20) {
                OjsAnswer a = b.client().post(WorkerCalls.FETCH, fetch);
                if (a.status() != 200) {
                    r.error(a);
                    errorsInARow++;
                    Thread.sleep(10);
                    continue;
                }
                errorsInARow = 0;
                List<Answers.Job> jobs = a.as(Answers.Jobs.class).map(Answers.Jobs::list).orElse(List.of());
                if (!jobs.isEmpty()) {
                    emptyInARow = 0;
                    ackAll(jobs);
                } else if (r.settled()) {
                    return;
                } else {
                    // other workers still have acks in flight (or jobs went missing): back off 1..64 ms
                    r.emptyFetches.incrementAndGet();
                    Thread.sleep(1L << Math.min(6, emptyInARow++));
                }
            }
        }

        /** Acks each first-seen id, at most --ack-concurrency in flight, and waits for all acks. */
        private void ackAll(List<Answers.Job> jobs) throws InterruptedException {
            for (Answers.Job job : jobs) {
                if (job.id() == null) {
                    continue;
                }
                if (!r.seen.add(job.id())) {
                    r.duplicates.incrementAndGet();
                    continue;
                }
                acksInFlight.acquire();
                b.client().postAsync(WorkerCalls.ACK, new WorkerCalls.Ack(job.id(), workerId, null))
                        .thenAccept(a -> {
                            try {
                                r.recordAck(a);
                            } finally {
                                acksInFlight.release();
                            }
                        });
            }
            acksInFlight.acquire(opt.ackConcurrency);
            acksInFlight.release(opt.ackConcurrency);
        }
    }

    private <R extends PhaseResult> R report(R r) {
        System.out.println(r.line());
        for (String w : r.warnings()) {
            System.out.println("WARNING: " + w);
            failed = true;
        }
        return r;
    }

    private static String summary(PhaseResult enqueue, PhaseResult batch, ProcessResult process, ServerMemory rss) {
        String ackP99 = process == null || process.latency.count() == 0 ? "n/a"
                : String.format(Locale.ROOT, "%.1fms", process.latency.percentileMs(0.99));
        String rssText = rss == null ? "n/a" : String.format(Locale.ROOT, "%.0fMiB rss_peak=%.0fMiB",
                rss.rssMiB(), rss.hwmMiB());
        return "RESULT enqueue=" + rate(enqueue) + " batch_enqueue=" + rate(batch) + " process=" + rate(process)
                + " ack_p99=" + ackP99 + " rss=" + rssText;
    }

    private static String rate(PhaseResult r) {
        return r == null || r.skipped != null ? "n/a" : String.format(Locale.ROOT, "%.0f/s", r.rate());
    }
}
