package dev.steadfast.stats;

import dev.steadfast.domain.JobState;
import dev.steadfast.store.maintenance.StatsStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Jobs per queue and state, and dead letters per queue, shared by every console request for
 * steadfast.console.counts-max-age (default 5 s): the counts scan an index of the whole table (about 170 ms at a
 * million jobs), so a dozen open consoles refreshing every 5 s cost one count, not a dozen. A snapshot past its
 * age is still served, while one refresh runs in the background, until it is twelve times too old; then callers
 * wait for the fresh one. With PT0S every call counts. Per instance and in memory.
 */
@ApplicationScoped
public class DepthCounts {

    /** One count of the whole table, as of {@code at}. */
    public record Snapshot(Instant at, Map<String, Map<JobState, Long>> byQueue, Map<String, Long> deadLetters) {
    }

    private final StatsStore stats;
    private final Clock clock;
    private final Duration maxAge;
    private final AtomicReference<Snapshot> last = new AtomicReference<>();
    private final AtomicReference<Uni<Snapshot>> refreshing = new AtomicReference<>();

    public DepthCounts(StatsStore stats, Clock clock, CountsConfig config) {
        this.stats = stats;
        this.clock = clock;
        this.maxAge = config.countsMaxAge();
    }

    public Uni<Snapshot> get() {
        if (maxAge.isZero()) {
            return count();
        }
        Snapshot s = last.get();
        Duration age = s == null ? null : Duration.between(s.at(), clock.instant());
        if (age != null && age.compareTo(maxAge) <= 0) {
            return Uni.createFrom().item(s);
        }
        Uni<Snapshot> fresh = shared();
        if (age != null && age.compareTo(maxAge.multipliedBy(12)) <= 0) {
            fresh.subscribe().with(x -> { }, e -> { });
            return Uni.createFrom().item(s);
        }
        return fresh;
    }

    private Uni<Snapshot> count() {
        return Uni.createFrom().deferred(() -> {
            Instant at = clock.instant();
            return Uni.combine().all().unis(stats.countsByQueue(), stats.deadLettersByQueue()).asTuple()
                    .map(t -> new Snapshot(at, t.getItem1(), t.getItem2()));
        }).invoke(last::set);
    }

    /** One count at a time: concurrent callers share the count in flight. */
    private Uni<Snapshot> shared() {
        Uni<Snapshot> running = refreshing.get();
        if (running != null) {
            return running;
        }
        Uni<Snapshot> mine = count().eventually(() -> refreshing.set(null)).memoize().indefinitely();
        return refreshing.compareAndSet(null, mine) ? mine : shared();
    }
}
