package dev.steadfast.maintenance;

import dev.steadfast.store.SearchIndexes;
import dev.steadfast.store.maintenance.MaintenanceStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Builds the text search's trigram index and the console's state, queue, type and tag indexes
 * ({@link SearchIndexes.Kind}) on each history partition once it no longer takes the hot path's writes
 * ({@link SearchIndexes#closed}: a day partition once its UTC day has ended, the dead letters, the default partition),
 * so no PUSH, FETCH, ACK or FAIL writes one (V31, V32). Every steadfast.maintenance.pruner-interval (first
 * {@link Pruner#FIRST_RUN_DELAY} after start-up) it builds every such index missing, one partition after the other,
 * with CREATE INDEX CONCURRENTLY: nothing waits on it, and a
 * partition's rows stay searchable meanwhile, read in order a bounded number per page (store.JobQueryStore), as the
 * open ones always are.
 *
 * <p>Not a readiness task ({@link MaintenanceHealth}): a build over a busy day's partition can take longer than any
 * interval, and search works without it, only in smaller steps. Failures are logged as the maintenance tasks' are
 * ({@link OutageLog}: at WARN, once per database outage); a failed build's leftover (an index PostgreSQL marked
 * invalid) is dropped and built again on a later run.
 */
@ApplicationScoped
public class SearchIndexer {

    private static final Logger LOG = Logger.getLogger(SearchIndexer.class);

    /** The scheduled job's identity (tests pause it to run {@link #runOnce} alone). */
    public static final String IDENTITY = "search-indexer";

    private final MaintenanceStore store;
    private final Clock clock;
    private final OutageLog failures = new OutageLog(SearchIndexer.class, "maintenance task " + IDENTITY);
    private volatile boolean stopping;

    public SearchIndexer(MaintenanceStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    void onStop(@Observes ShutdownEvent e) {
        stopping = true;
    }

    @Scheduled(identity = IDENTITY, every = "${steadfast.maintenance.pruner-interval}",
            delayed = Pruner.FIRST_RUN_DELAY, concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        if (stopping) {
            return Uni.createFrom().voidItem();
        }
        return runOnce().invoke(failures::succeeded).onFailure().invoke(failures::failed).onFailure().recoverWithNull()
                // the next partition due at once: after an upgrade every closed day is, and a run is never in the way
                .flatMap(built -> built != null && built.isPresent() ? tick() : Uni.createFrom().voidItem());
    }

    /** Builds the indexes of one closed partition that lacks some; answers its name, or empty when none was due. */
    public Uni<Optional<String>> runOnce() {
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        return store.searchLeaves().flatMap(leaves -> {
            for (SearchIndexes.Leaf leaf : leaves) {
                if (!leaf.indexed() && !leaf.building() && SearchIndexes.closed(leaf.name(), today)) {
                    long started = System.nanoTime();
                    return store.buildSearchIndex(leaf).invoke(x -> LOG.infof("built the search indexes of %s in %d ms",
                            leaf.name(), (System.nanoTime() - started) / 1_000_000)).map(x -> Optional.of(leaf.name()));
                }
            }
            return Uni.createFrom().item(Optional.<String>empty());
        });
    }
}
