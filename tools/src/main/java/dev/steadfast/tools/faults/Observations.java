package dev.steadfast.tools.faults;

import dev.steadfast.tools.ledger.JobLedger;
import dev.steadfast.tools.ojs.OjsAnswer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything a fault run observed, from all its threads: the jobs (ledger and holds), every answer's class (500,
 * 503, other 5xx, no envelope, connection failure by kind), unexpected refusals, late answers, examples and the
 * timeline of faults. Time is nanoseconds since the run started.
 */
final class Observations {

    /** Late answers (the lease certainly over): named or anonymous, accepted or not. */
    static final int LATE_NAMED = 0;
    static final int LATE_NAMED_ACCEPTED = 1;
    static final int LATE_ANONYMOUS = 2;
    static final int LATE_ANONYMOUS_ACCEPTED = 3;

    final long t0 = System.nanoTime();
    final JobLedger jobs = new JobLedger();
    final ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();
    final AtomicLong requests = new AtomicLong();
    final AtomicLong answers500 = new AtomicLong();
    final AtomicLong answers503 = new AtomicLong();
    final AtomicLong answersOther5xx = new AtomicLong();
    final AtomicLong noEnvelope = new AtomicLong();
    final AtomicLong connectionFailures = new AtomicLong();
    final Map<String, AtomicLong> failureKinds = new ConcurrentHashMap<>();
    final AtomicLong unexpected4xx = new AtomicLong();
    final AtomicLong[] late = {new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong()};
    final List<String> examples = Collections.synchronizedList(new ArrayList<>());
    final List<String> timeline = Collections.synchronizedList(new ArrayList<>());

    private long failingSince = -1;
    private long longestFailing;
    private long lastOk = -1;

    /**
     * One request's outcome (answered below 500, or not), for the longest time during which requests failed and
     * none succeeded, on any instance: what a client of the whole cluster saw as an outage.
     */
    synchronized void outcome(boolean ok) {
        long t = now();
        if (ok) {
            lastOk = t;
        }
        if (!ok && failingSince < 0) {
            failingSince = t;
        } else if (ok && failingSince >= 0) {
            longestFailing = Math.max(longestFailing, t - failingSince);
            failingSince = -1;
        }
    }

    /**
     * The longest failing stretch since the last call (ns), counting one still going on; starts a new window, in
     * which a stretch going on now counts from now (an outage before the window is not the window's).
     */
    synchronized long longestFailingAndRestart() {
        long t = now();
        long longest = Math.max(longestFailing, failingSince >= 0 ? t - failingSince : 0);
        longestFailing = 0;
        if (failingSince >= 0) {
            failingSince = t;
        }
        return longest;
    }

    /** Waits (up to {@code timeoutMs}) until a request succeeds after this call: the cluster serves again. */
    boolean awaitServing(long timeoutMs) throws InterruptedException {
        long from = now();
        long until = from + timeoutMs * 1_000_000L;
        while (now() < until) {
            synchronized (this) {
                if (lastOk > from && failingSince < 0) {
                    return true;
                }
            }
            Thread.sleep(50);
        }
        return false;
    }

    long now() {
        return System.nanoTime() - t0;
    }

    /** Classifies one answer: 500, 503 (database away), other 5xx, and any 4xx/5xx without the OJS envelope. */
    void check(OjsAnswer a, String method, String path) {
        int s = a.status();
        if (s == 500) {
            answers500.incrementAndGet();
            example("500 for " + method + " " + path + ": " + a.excerpt(300));
        } else if (s == 503) {
            answers503.incrementAndGet();
        } else if (s > 500) {
            answersOther5xx.incrementAndGet();
            example(s + " for " + method + " " + path + ": " + a.excerpt(300));
        }
        if (s >= 400 && a.envelope().isEmpty()) {
            noEnvelope.incrementAndGet();
            example("no envelope: " + s + " for " + method + " " + path + ": " + a.excerpt(300));
        }
    }

    void connectionFailed(int instance, OjsAnswer a) {
        connectionFailures.incrementAndGet();
        String kind = "instance " + instance + ": " + a.failure().getClass().getSimpleName() + " "
                + a.failure().getMessage();
        failureKinds.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    /** A line of the timeline, printed now and again in the report. */
    void say(String format, Object... args) {
        String line = String.format(Locale.ROOT, "[%6.1f s] ", now() / 1e9) + String.format(Locale.ROOT, format, args);
        timeline.add(line);
        System.out.println(line);
    }

    void example(String s) {
        if (examples.size() < 100) {
            examples.add(s);
        }
    }
}
