package dev.steadfast.tools.bench;

import static dev.steadfast.tools.bench.Bench.round2;
import static dev.steadfast.tools.bench.Bench.secs;

import dev.steadfast.tools.measure.Latencies;
import dev.steadfast.tools.measure.ServerMemory;
import dev.steadfast.tools.ojs.OjsJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One workload's figures; prints a human line, notes, and {@code RESULT {json}}: workload, jobs, elapsed_s,
 * jobs_per_s, the workload's own figures ({@link #extra}, in the order they were put), lost, duplicates,
 * failed_requests, timed_out, client_cores, server_cores and the server's memory.
 */
final class Outcome {
    final String workload;
    final int jobs;
    final Map<String, Object> extra = new LinkedHashMap<>();
    final List<String> notes = new ArrayList<>();
    long nanos;
    int lost, duplicates, failed;
    double rate, clientCores = Double.NaN, serverCores = Double.NaN;
    boolean timedOut, bad;
    String skipped, firstError;

    Outcome(String workload, int jobs) {
        this.workload = workload;
        this.jobs = jobs;
    }

    static Outcome of(String w, int jobs, PhaseResult r, Progress p) {
        Outcome o = new Outcome(w, jobs);
        o.nanos = r.nanos;
        o.rate = r.nanos == 0 ? 0 : r.jobs / secs(r.nanos);
        o.clientCores = r.clientCores;
        o.serverCores = r.serverCores;
        o.timedOut = r.timedOut;
        o.failed = p.failed.get();
        o.firstError = p.firstError.get();
        return o;
    }

    static Outcome skipped(String w, String why) {
        Outcome o = new Outcome(w, 0);
        o.skipped = why;
        return o;
    }

    static Outcome failed(String w, int jobs, Progress p, String why) {
        Outcome o = new Outcome(w, jobs);
        o.bad = true;
        o.failed = Math.max(1, p.failed.get());
        o.firstError = p.firstError.get();
        o.notes.add(why);
        o.rate = Double.NaN;
        return o;
    }

    void requestLatency(Latencies l) {
        if (l.count() == 0) {
            return;
        }
        extra.put("request_p50_ms", round2(l.percentileMs(0.50)));
        extra.put("request_p99_ms", round2(l.percentileMs(0.99)));
    }

    /** Prints the result; returns the exit code contribution (1 when lost/duplicates/failed != 0). */
    int print(ServerMemory rss) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", workload);
        if (skipped != null) {
            System.out.printf("%-14s skipped: %s%n", workload, skipped);
            m.put("skipped", skipped);
            System.out.println("RESULT " + json(m));
            return 0;
        }
        m.put("jobs", jobs);
        m.put("elapsed_s", Math.round(secs(nanos) * 1000) / 1000.0);
        if (!Double.isNaN(rate)) {
            m.put("jobs_per_s", Math.round(rate * 10) / 10.0);
        }
        m.putAll(extra);
        m.put("lost", lost);
        m.put("duplicates", duplicates);
        m.put("failed_requests", failed);
        if (timedOut) {
            m.put("timed_out", true);
        }
        m.put("client_cores", round2(clientCores));
        if (!Double.isNaN(serverCores)) {
            m.put("server_cores", round2(serverCores));
        }
        if (rss != null) {
            m.put("server_vmhwm_mib", Math.round(rss.hwmMiB()));
            m.put("server_vmrss_mib", Math.round(rss.rssMiB()));
        }
        String rateText = Double.isNaN(rate) ? "" : String.format(Locale.ROOT, " %.0f jobs/s", rate);
        System.out.printf(Locale.ROOT, "%-14s %d jobs in %.2fs%s  lost=%d duplicates=%d failed=%d%n", workload,
                jobs, secs(nanos), rateText, lost, duplicates, failed);
        for (String n : notes) {
            System.out.println("note: " + workload + ": " + n);
        }
        if (rss != null) {
            System.out.printf(Locale.ROOT, "server-rss     pid=%d VmHWM=%.0fMiB (peak since start) VmRSS=%.0fMiB%n",
                    rss.pid(), rss.hwmMiB(), rss.rssMiB());
        }
        boolean fail = bad || timedOut || lost != 0 || duplicates != 0 || failed != 0;
        if (fail) {
            System.out.println("WARNING: " + workload + ": lost=" + lost + " duplicates=" + duplicates + " failed="
                    + failed + (timedOut ? " (timed out)" : "") + (firstError != null ? "; first error: "
                    + firstError : ""));
        }
        System.out.println("RESULT " + json(m));
        return fail ? 1 : 0;
    }

    /** The figures as one JSON object; a number that is not finite is written as null. */
    static String json(Map<String, Object> m) {
        Map<String, Object> finite = new LinkedHashMap<>();
        m.forEach((k, v) -> finite.put(k, v instanceof Double d && (d.isNaN() || d.isInfinite()) ? null : v));
        return OjsJson.write(finite);
    }
}
