package dev.steadfast.http;

/**
 * At most {@code lines} log lines per fixed window of {@code windowMillis} (pure: the caller passes the time), for
 * lines a client can cause at will, such as a failed authentication: under a flood the log gets the first few
 * lines of each window and then, with the next line logged, how many were left out, instead of one line per
 * request. The count of left-out lines is reported only when a later line is logged; the state is three numbers,
 * whatever the load. Thread-safe (the event loops share one budget; only refused requests reach it).
 */
final class LogBudget {

    /** What {@link #admit} answers for a line that is not to be logged. */
    static final long SKIP = -1;

    private final int lines;
    private final long windowMillis;
    private long windowStart;
    private boolean started;
    private int used;
    private long skipped;

    LogBudget(int lines, long windowMillis) {
        if (lines < 1 || windowMillis < 1) {
            throw new IllegalArgumentException("a log budget needs at least one line per window of at least 1 ms");
        }
        this.lines = lines;
        this.windowMillis = windowMillis;
    }

    /**
     * Whether a line at {@code nowMillis} may be logged: {@link #SKIP} when the window's lines are spent, otherwise
     * how many lines were skipped since the last one logged (0 mostly), which the line should mention.
     */
    synchronized long admit(long nowMillis) {
        if (!started || nowMillis - windowStart >= windowMillis || nowMillis < windowStart) {
            started = true;
            windowStart = nowMillis;
            used = 0;
        }
        if (used >= lines) {
            skipped++;
            return SKIP;
        }
        used++;
        long s = skipped;
        skipped = 0;
        return s;
    }

    int lines() {
        return lines;
    }

    long windowMillis() {
        return windowMillis;
    }
}
