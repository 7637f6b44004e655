package dev.steadfast.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.steadfast.domain.JobState;
import dev.steadfast.store.maintenance.StatsStore;
import io.smallrye.mutiny.Uni;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The shared depth count: fresh within its age, served stale while one refresh runs, waited for when too old. */
class DepthCountsTest {

    static final class HandClock extends Clock {
        Instant now = Instant.parse("2026-11-21T10:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** Counts how often the table is counted; every count says "n available" for the n-th count. */
    static final class CountingStats extends StatsStore {
        final AtomicInteger counts = new AtomicInteger();

        CountingStats() {
            super(null);
        }

        @Override
        public Uni<Map<String, Map<JobState, Long>>> countsByQueue() {
            long n = counts.incrementAndGet();
            return Uni.createFrom().item(Map.of("q", Map.of(JobState.AVAILABLE, n)));
        }

        @Override
        public Uni<Map<String, Long>> deadLettersByQueue() {
            return Uni.createFrom().item(Map.of());
        }
    }

    static CountsConfig config(Duration maxAge) {
        return (CountsConfig) Proxy.newProxyInstance(DepthCountsTest.class.getClassLoader(),
                new Class<?>[] {CountsConfig.class}, (p, m, a) -> maxAge);
    }

    private static long available(DepthCounts c) {
        return c.get().await().indefinitely().byQueue().get("q").get(JobState.AVAILABLE);
    }

    @Test
    void oneCountServesEveryoneWithinItsAgeThenRefreshes() {
        HandClock clock = new HandClock();
        CountingStats stats = new CountingStats();
        DepthCounts c = new DepthCounts(stats, clock, config(Duration.ofSeconds(5)));
        assertEquals(1, available(c));
        clock.now = clock.now.plusSeconds(4);
        assertEquals(1, available(c));
        assertEquals(1, stats.counts.get(), "within its age, no new count");
        clock.now = clock.now.plusSeconds(10);
        assertEquals(1, available(c), "a stale count is served at once...");
        assertEquals(2, stats.counts.get(), "...while the refresh runs");
        assertEquals(2, available(c));
        clock.now = clock.now.plusSeconds(120);
        assertEquals(3, available(c), "far too old: wait for a fresh count");
    }

    @Test
    void zeroAgeCountsEveryTime() {
        CountingStats stats = new CountingStats();
        DepthCounts c = new DepthCounts(stats, new HandClock(), config(Duration.ZERO));
        assertEquals(1, available(c));
        assertEquals(2, available(c));
        assertSame(2, stats.counts.get());
    }
}
