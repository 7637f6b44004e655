package dev.steadfast.tools.bench;

import static dev.steadfast.tools.bench.Bench.secs;

import dev.steadfast.tools.ojs.OjsAnswer;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The process phase's result: adds duplicates, failed acks and the acked == enqueued check. */
final class ProcessResult extends PhaseResult {
    final Set<String> seen;
    final AtomicInteger duplicates = new AtomicInteger();
    final AtomicInteger ackFailed = new AtomicInteger();
    final AtomicInteger emptyFetches = new AtomicInteger();

    ProcessResult(String name, int expected, long serverPid) {
        super(name, expected, serverPid);
        this.seen = ConcurrentHashMap.newKeySet(Math.max(16, expected * 2));
    }

    /** True when every expected job is acked or failed to ack: nothing left to wait for. */
    boolean settled() {
        return jobsDone.get() + ackFailed.get() >= target;
    }

    void recordAck(OjsAnswer a) {
        if (a.status() == 200) {
            latency.record(a.nanos());
            addJobs(1);
            return;
        }
        ackFailed.incrementAndGet();
        error(a);
    }

    @Override
    void finish(boolean timedOut) {
        super.finish(timedOut && !settled());
    }

    @Override
    String line() {
        return String.format(Locale.ROOT, "%-14s %7d jobs in %6.2fs %8.0f jobs/s  ack p50=%s p99=%s"
                + "  acked=%d/%d duplicates=%d empty-fetches=%d errors=%d%s", name, jobs, secs(nanos), rate(),
                latency.ms(0.50), latency.ms(0.99), jobs, target, duplicates.get(), emptyFetches.get(),
                errors.get(), cpuText);
    }

    @Override
    List<String> warnings() {
        List<String> w = super.warnings();
        if (jobs != target) {
            w.add(name + ": acked " + jobs + " jobs but " + target + " were enqueued");
        }
        if (duplicates.get() > 0) {
            w.add(name + ": " + duplicates.get() + " duplicate job ids were fetched");
        }
        return w;
    }
}
