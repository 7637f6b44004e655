package dev.steadfast.store.maintenance;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The live job table's statistics against its running row count, and a fresh ANALYZE when they are far apart
 * (maintenance.TableStatistics decides, with domain.TableGrowth).
 */
@ApplicationScoped
public class TableStatisticsStore {

    /**
     * The rows the last ANALYZE (or VACUUM) of jobs counted (pg_class.reltuples, -1 when never) and the live rows
     * the statistics count now (pg_stat_user_tables.n_live_tup, which every insert and delete moves, reported by
     * each backend at most a second late). One read of two catalog rows, no lock on the table.
     */
    static final String READ_JOBS = "SELECT c.reltuples::int8 AS analyzed, s.n_live_tup AS live"
            + " FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid = 'jobs'::regclass";

    /**
     * ANALYZE of jobs: a sample of 30,000 rows (default statistics target), a SHARE UPDATE EXCLUSIVE lock that
     * blocks no reader or writer of the table, only another ANALYZE or VACUUM of it, which SKIP_LOCKED makes this
     * one skip instead of waiting (several instances may find the table grown at once: one analyzes). It
     * invalidates every plan cached for the table, on every connection.
     */
    static final String ANALYZE_JOBS = "ANALYZE (SKIP_LOCKED) jobs";

    private final Pool pool;

    public TableStatisticsStore(Pool pool) {
        this.pool = pool;
    }

    /** What the statistics of jobs say: analyzed rows (-1 when never analyzed) and live rows now. */
    public record Counts(long analyzed, long live) {
    }

    public Uni<Counts> readJobs() {
        return pool.query(READ_JOBS).execute().map(rows -> {
            Row r = rows.iterator().next();
            return new Counts(r.getLong("analyzed"), r.getLong("live"));
        });
    }

    public Uni<Void> analyzeJobs() {
        return pool.query(ANALYZE_JOBS).execute().replaceWithVoid();
    }
}
