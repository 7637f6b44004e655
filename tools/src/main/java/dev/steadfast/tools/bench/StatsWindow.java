package dev.steadfast.tools.bench;

import java.util.Map;

/**
 * The database counters around a timed part (--pg-stats CMD: a shell command printing {@code key=integer} pairs,
 * e.g. psql reading pg_current_wal_lsn(), pg_stat_wal and pg_stat_database). {@link #open} waits
 * --pg-stats-settle-ms (so counters of earlier work that PostgreSQL reports late are in before the clock starts),
 * then reads them; {@link #end} reads them again as soon as the timed part is over ({@code pg_KEY}: the
 * difference), and {@link #settleInto} waits the settle time once more and reads a third time
 * ({@code pg_KEY_settled}: backends report their statistics up to about 10 s late, so a read right at the end misses
 * part of the window; the settled one adds the settle time's own background work instead). Also records the
 * window's wall-clock start and end ({@code window_start_ms}, {@code window_end_ms}, epoch ms) so activity sampled
 * elsewhere (autovacuum) can be matched to the run. Without --pg-stats only the wall-clock times.
 */
final class StatsWindow {
    private final BenchOptions opt;
    private Map<String, Long> before, atEnd;
    private long startMs, endMs;
    private boolean settled;

    private StatsWindow(BenchOptions opt) {
        this.opt = opt;
    }

    static StatsWindow open(BenchOptions opt) throws InterruptedException {
        StatsWindow w = new StatsWindow(opt);
        if (opt.pgStats != null) {
            if (opt.pgSettleMs > 0) {
                Thread.sleep(opt.pgSettleMs);
            }
            w.before = ShellCommands.pgStats(opt.pgStats);
        }
        w.startMs = System.currentTimeMillis();
        return w;
    }

    /** The timed part is over: wall clock and counters now (call once, right when the clock stops). */
    void end() {
        if (endMs != 0) {
            return;
        }
        endMs = System.currentTimeMillis();
        if (before != null) {
            atEnd = ShellCommands.pgStats(opt.pgStats);
        }
    }

    /** Waits the settle time, reads the counters a third time and puts every figure into {@code o}. */
    void settleInto(Outcome o) throws InterruptedException {
        end();
        o.extra.put("window_start_ms", startMs);
        o.extra.put("window_end_ms", endMs);
        if (before == null) {
            return;
        }
        putDeltas(o, atEnd, "");
        if (opt.pgSettleMs > 0 && !settled) {
            settled = true;
            Thread.sleep(opt.pgSettleMs);
            putDeltas(o, ShellCommands.pgStats(opt.pgStats), "_settled");
            o.extra.put("pg_settle_ms", opt.pgSettleMs);
        }
    }

    private void putDeltas(Outcome o, Map<String, Long> after, String suffix) {
        for (var e : before.entrySet()) {
            Long a = after.get(e.getKey());
            if (a != null) {
                o.extra.put("pg_" + e.getKey() + suffix, a - e.getValue());
            }
        }
    }
}
