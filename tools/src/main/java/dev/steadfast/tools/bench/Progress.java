package dev.steadfast.tools.bench;

import dev.steadfast.tools.ledger.JobLedger;
import dev.steadfast.tools.measure.Latencies;
import dev.steadfast.tools.ojs.OjsAnswer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A workload's way to its target: the {@link JobLedger} of its jobs, the jobs given up on (their answer failed),
 * failed requests with the first error, fetch counts, ACK latencies, and when the target was reached. The run is
 * settled when every job is completed or given up on.
 */
final class Progress {
    final int target;
    final JobLedger jobs;
    final AtomicInteger gaveUp = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicInteger fetchRequests = new AtomicInteger();
    final AtomicInteger emptyFetches = new AtomicInteger();
    final AtomicReference<String> firstError = new AtomicReference<>();
    final Latencies ackLatency = new Latencies();
    volatile long doneNanos;

    Progress(int target) {
        this(target, false);
    }

    /** With {@code prune} (long runs) the ledger forgets completed jobs but their ids. */
    Progress(int target, boolean prune) {
        this.target = target;
        this.jobs = new JobLedger(prune);
    }

    /** An accepted ACK; the one that reaches the target stops the clock. */
    void complete(String id) {
        if (jobs.completed(id) == target) {
            doneNanos = System.nanoTime();
            synchronized (this) {
                notifyAll();
            }
        }
    }

    int completedCount() {
        return jobs.completedCount();
    }

    boolean settled() {
        return jobs.completedCount() + gaveUp.get() >= target;
    }

    /** Waits until every job is completed or given up, or the deadline; true unless the deadline passed. */
    boolean awaitSettled(long deadline) throws InterruptedException {
        while (!settled()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            synchronized (this) {
                if (!settled()) {
                    wait(Math.max(1, Math.min(5, left / 1_000_000L)));
                }
            }
        }
        return true;
    }

    /** A request that failed: an unexpected answer, or none. */
    void failed(OjsAnswer a) {
        failed((a.failed() ? "" : "HTTP " + a.status() + " ") + a.excerpt(300));
    }

    void failed(String what) {
        failed.incrementAndGet();
        firstError.compareAndSet(null, what);
    }
}
