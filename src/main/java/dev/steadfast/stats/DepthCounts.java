package dev.steadfast.stats;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.steadfast.domain.JobState;
import dev.steadfast.store.maintenance.StatsStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Jobs per queue and state, and dead letters per queue, shared by every console request for
 * steadfast.console.counts-max-age (default 5 s): the counts scan an index of the whole table (about 170 ms at a
 * million jobs), so a dozen open consoles refreshing every 5 s cost one count, not a dozen. A snapshot past its
 * age is still served, while one refresh runs in the background, until it is twelve times too old; then callers
 * wait for the fresh one. With PT0S every call counts. Per instance and in memory.
 *
 * <p>A one-entry Caffeine cache: refresh-after-write is the age (stale served while one reload runs), expire-after-
 * write twelve ages (waited for), concurrent loads shared, a failed load retried by the next caller and a failed
 * refresh logged by Caffeine. It is built here rather than configured through quarkus-cache, whose caches offer
 * neither refresh-after-write nor a ticker: its time is the {@link Clock} bean's, so tests move it.
 */
@ApplicationScoped
public class DepthCounts {

    /** One count of the whole table, as of {@code at}. */
    public record Snapshot(Instant at, Map<String, Map<JobState, Long>> byQueue, Map<String, Long> deadLetters) {
    }

    private static final Boolean ALL = Boolean.TRUE;

    private final StatsStore stats;
    private final Clock clock;
    /** Null when the age is zero: every call counts. */
    private final AsyncLoadingCache<Boolean, Snapshot> shared;

    public DepthCounts(StatsStore stats, Clock clock, CountsConfig config) {
        this.stats = stats;
        this.clock = clock;
        Duration maxAge = config.countsMaxAge();
        Instant base = clock.instant();
        this.shared = maxAge.isZero() ? null : Caffeine.newBuilder()
                .ticker(() -> Duration.between(base, clock.instant()).toNanos())
                .executor(Runnable::run) // the count itself is non-blocking; nothing to hand to another pool
                .refreshAfterWrite(maxAge)
                .expireAfterWrite(maxAge.multipliedBy(12))
                .buildAsync((all, executor) -> count().subscribeAsCompletionStage());
    }

    /** The counts as this caller found them: fresh, or stale while one refresh runs, or the load it waits for. */
    public Uni<Snapshot> get() {
        if (shared == null) {
            return count();
        }
        // read without side effects first: Caffeine answers a refresh that completed at once with its new value
        Snapshot found = shared.synchronous().policy().getIfPresentQuietly(ALL);
        CompletableFuture<Snapshot> loaded = shared.get(ALL); // loads when absent or expired, refreshes when stale
        return found != null ? Uni.createFrom().item(found) : Uni.createFrom().completionStage(loaded);
    }

    private Uni<Snapshot> count() {
        return Uni.createFrom().deferred(() -> {
            Instant at = clock.instant();
            return Uni.combine().all().unis(stats.countsByQueue(), stats.deadLettersByQueue()).asTuple()
                    .map(t -> new Snapshot(at, t.getItem1(), t.getItem2()));
        });
    }
}
