package dev.steadfast.maintenance;

import dev.steadfast.domain.TableGrowth;
import dev.steadfast.store.DatabaseFaults;
import dev.steadfast.store.maintenance.TableStatisticsStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Keeps the live job table's statistics up with a burst of jobs: every steadfast.maintenance.statistics-interval
 * (1 s) it reads how many rows jobs holds against how many its last ANALYZE counted, and analyzes it again when
 * {@link TableGrowth} says the plans cached from the old statistics may read the whole table. Safe on every instance
 * at once (a read of two catalog rows; the ANALYZE skips when another one holds the table). A failed run is logged
 * at debug level: the maintenance tasks already report an unreachable database, and autovacuum analyzes the table
 * within its naptime anyway.
 */
@ApplicationScoped
public class TableStatistics {

    private static final Logger LOG = Logger.getLogger(TableStatistics.class);

    private final TableStatisticsStore store;
    /**
     * This instance's last ANALYZE: the statistics' counts just before it. While the analyzed count is still the
     * same afterwards, the ANALYZE changed nothing (the server's role may not analyze the table: PostgreSQL warns
     * and skips it), and the next try waits for the same growth again rather than a second.
     */
    private volatile TableStatisticsStore.Counts lastTry;

    TableStatistics(TableStatisticsStore store) {
        this.store = store;
    }

    @Scheduled(identity = "table-statistics", every = "${steadfast.maintenance.statistics-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runOnce().onFailure().invoke(e -> LOG.debugf("could not check the job table's statistics: %s",
                DatabaseFaults.describe(e))).onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Reads the counts once and analyzes jobs when they are far apart; answers whether it did. */
    public Uni<Boolean> runOnce() {
        return store.readJobs().chain(c -> {
            TableStatisticsStore.Counts last = lastTry;
            long analyzed = last != null && last.analyzed() == c.analyzed()
                    ? Math.max(c.analyzed(), last.live()) : c.analyzed();
            if (!TableGrowth.analyzeNow(analyzed, c.live())) {
                return Uni.createFrom().item(false);
            }
            LOG.debugf("analyzing jobs: %d live rows, %d at the last analyze", c.live(), c.analyzed());
            lastTry = c;
            return store.analyzeJobs().replaceWith(true);
        });
    }
}
