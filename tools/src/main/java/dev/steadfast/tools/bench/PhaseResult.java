package dev.steadfast.tools.bench;

import static dev.steadfast.tools.bench.Bench.secs;

import dev.steadfast.tools.measure.CpuTime;
import dev.steadfast.tools.measure.Latencies;
import dev.steadfast.tools.ojs.OjsAnswer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Counters, latencies and timing of one phase (the clock starts when it is made). Counters are thread-safe. */
class PhaseResult {
    final String name;
    final int target;
    final Latencies latency = new Latencies();
    final AtomicInteger jobsDone = new AtomicInteger();
    final AtomicInteger errors = new AtomicInteger();
    final AtomicReference<String> firstError = new AtomicReference<>();
    private final long serverPid;
    final long t0;
    private final CpuTime cpu0;
    int jobs;
    long nanos;
    boolean timedOut;
    String skipped;
    String cpuText = "";
    double clientCores = Double.NaN, serverCores = Double.NaN;

    PhaseResult(String name, int target, long serverPid) {
        this.name = name;
        this.target = target;
        this.serverPid = serverPid;
        this.cpu0 = CpuTime.now(serverPid);
        this.t0 = System.nanoTime();
    }

    long deadline(int timeoutSeconds) {
        return t0 + timeoutSeconds * 1_000_000_000L;
    }

    void addJobs(int n) {
        jobsDone.addAndGet(n);
    }

    /** A failed request: an answer other than the expected one, or none. */
    void error(OjsAnswer a) {
        errors.incrementAndGet();
        firstError.compareAndSet(null, (a.failed() ? "" : "HTTP " + a.status() + " ") + a.excerpt(200));
    }

    /** Stops the phase clock. */
    void finish(boolean timedOut) {
        this.nanos = System.nanoTime() - t0;
        CpuTime cpu1 = CpuTime.now(serverPid);
        this.cpuText = cpu1.since(cpu0, nanos);
        this.clientCores = cpu1.clientCores(cpu0, nanos);
        this.serverCores = cpu1.serverCores(cpu0, nanos);
        this.timedOut = timedOut;
        this.jobs = jobsDone.get();
    }

    double rate() {
        return nanos == 0 ? 0 : jobs / secs(nanos);
    }

    String line() {
        if (skipped != null) {
            return String.format("%-14s skipped: %s", name, skipped);
        }
        return String.format(Locale.ROOT, "%-14s %7d jobs in %6.2fs %8.0f jobs/s  latency p50=%s p99=%s"
                + "  responses=%d errors=%d%s", name, jobs, secs(nanos), rate(), latency.ms(0.50),
                latency.ms(0.99), latency.count(), errors.get(), cpuText);
    }

    List<String> warnings() {
        List<String> w = new ArrayList<>();
        if (timedOut) {
            w.add(name + " hit the timeout; " + jobs + " of " + target + " jobs done");
        }
        if (errors.get() > 0) {
            w.add(name + ": " + errors.get() + " failed requests, first: " + firstError.get());
        }
        return w;
    }
}
