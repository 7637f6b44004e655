package dev.steadfast.domain;

/**
 * When the live job table has grown so far past what its statistics say that the plans cached on the pool's
 * connections may no longer fit it. The hot statements keep one generic plan per connection (store.JobSql.unseen),
 * built from the statistics of the moment it was made; a plan built while the table held a few rows reads it
 * sequentially and sorts it (cheapest for a page or two), and keeps doing so after a burst of jobs has made it a
 * hundred thousand rows, until something invalidates the plan: an ANALYZE or a VACUUM of the table, which autovacuum
 * runs within its naptime (a minute by default). Measured: a claim of 10 from 100,000 waiting jobs read all 3,032
 * pages of the table and took 102 ms with the plan made while it held 50 rows, against an index scan of about 0.3 ms.
 *
 * <p>The rule: analyze again once at least {@link #MIN_ROWS} rows are live and at least {@link #FACTOR} times as
 * many as the last ANALYZE counted (a table never analyzed counts 0). Growth from 0 to 10,000 rows qualifies at
 * once; a table analyzed at 100,000 rows only at a million, which autovacuum's own threshold (10% by default)
 * reaches long before.
 */
public final class TableGrowth {

    /** Below this many live rows any plan reads the table quickly enough. */
    public static final long MIN_ROWS = 10_000;
    /** How many times the analyzed row count the live one must reach. */
    public static final long FACTOR = 10;

    private TableGrowth() {
    }

    /**
     * Whether a table of {@code liveRows} live rows (the statistics' running count) whose last ANALYZE counted
     * {@code analyzedRows} (negative: never analyzed) should be analyzed now.
     */
    public static boolean analyzeNow(long analyzedRows, long liveRows) {
        long analyzed = Math.max(0, analyzedRows);
        return liveRows >= MIN_ROWS && liveRows >= FACTOR * analyzed;
    }
}
