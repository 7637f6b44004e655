package dev.steadfast.domain.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.limits.RateLimitPolicy.Window;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A key's limits at fixed instants: concurrency, the sliding window, the throttle, and all of them at once. */
class RateLimitRuleTest {

    static final Instant T0 = Instant.parse("2026-11-26T12:00:00.250Z");

    static RateLimitPolicy policy(Integer concurrency, Window rate, Window throttle) {
        return new RateLimitPolicy("api.partner.com", concurrency, rate, throttle);
    }

    @Test
    void concurrencyCountsTheKeysActiveJobs() {
        RateLimitPolicy p = policy(2, null, null);
        assertEquals(2, RateLimitRule.allowance(p, PartitionState.EMPTY, 0, T0, 10));
        assertEquals(1, RateLimitRule.allowance(p, PartitionState.EMPTY, 1, T0, 10));
        assertEquals(0, RateLimitRule.allowance(p, PartitionState.EMPTY, 2, T0, 10));
        assertEquals(0, RateLimitRule.allowance(p, PartitionState.EMPTY, 7, T0, 10));
        assertEquals(1, RateLimitRule.allowance(p, PartitionState.EMPTY, 0, T0, 1));
        assertEquals(0, RateLimitRule.allowance(policy(0, null, null), PartitionState.EMPTY, 0, T0, 1));
        // concurrency alone remembers nothing but the last start
        assertEquals(List.of(), RateLimitRule.after(p, PartitionState.EMPTY, T0, 2).starts());
    }

    @Test
    void theWindowSlidesInsteadOfResettingOnTheClock() {
        RateLimitPolicy p = policy(null, new Window(3, Duration.ofMinutes(1)), null);
        assertEquals(3, RateLimitRule.allowance(p, PartitionState.EMPTY, 0, T0, 10));
        PartitionState s = RateLimitRule.after(p, PartitionState.EMPTY, T0, 2);
        assertEquals(1, RateLimitRule.allowance(p, s, 0, T0.plusSeconds(1), 10));
        s = RateLimitRule.after(p, s, T0.plusSeconds(30), 1);
        assertEquals(3, RateLimitRule.counted(p, s, T0.plusSeconds(30)));
        assertEquals(0, RateLimitRule.allowance(p, s, 0, T0.plusSeconds(59), 10));
        assertEquals(T0.plusSeconds(60), RateLimitRule.nextStart(p, s, T0.plusSeconds(59)));
        assertEquals(T0.plusSeconds(60), RateLimitRule.windowResetsAt(p.rate(), s.starts(), T0.plusSeconds(59)));
        // at T0 + 60 s the two starts of T0 leave the window; the one of T0 + 30 s still counts
        assertEquals(2, RateLimitRule.allowance(p, s, 0, T0.plusSeconds(60), 10));
        assertEquals(1, RateLimitRule.counted(p, s, T0.plusSeconds(60)));
        assertEquals(3, RateLimitRule.allowance(p, s, 0, T0.plusSeconds(90), 10));
        assertNull(RateLimitRule.windowResetsAt(p.rate(), s.starts(), T0.plusSeconds(90)));
    }

    @Test
    void theWindowRemembersNoMoreStartsThanItsLimit() {
        RateLimitPolicy p = policy(null, new Window(2, Duration.ofHours(1)), null);
        PartitionState s = PartitionState.EMPTY;
        for (int i = 0; i < 5; i++) {
            s = RateLimitRule.after(p, s, T0.plusSeconds(i), 1);
        }
        assertEquals(List.of(T0.plusSeconds(3), T0.plusSeconds(4)), s.starts());
        assertEquals(T0.plusSeconds(4), s.lastStart());
        assertEquals(T0.plusSeconds(3600 + 3), RateLimitRule.nextStart(p, s, T0.plusSeconds(5)));
    }

    @Test
    void theThrottleSpacesStartsEvenly() {
        RateLimitPolicy p = policy(null, null, new Window(10, Duration.ofSeconds(1)));
        assertEquals(1, RateLimitRule.allowance(p, PartitionState.EMPTY, 0, T0, 10));
        PartitionState s = RateLimitRule.after(p, PartitionState.EMPTY, T0, 1);
        assertEquals(0, RateLimitRule.allowance(p, s, 0, T0, 10));
        assertEquals(0, RateLimitRule.allowance(p, s, 0, T0.plusMillis(99), 10));
        assertEquals(T0.plusMillis(100), RateLimitRule.nextStart(p, s, T0.plusMillis(99)));
        assertEquals(1, RateLimitRule.allowance(p, s, 0, T0.plusMillis(100), 10));
        // 60 per minute is one a second, not 60 in the first second (5.3)
        RateLimitPolicy perMinute = policy(null, null, new Window(60, Duration.ofMinutes(1)));
        PartitionState m = RateLimitRule.after(perMinute, PartitionState.EMPTY, T0, 1);
        assertEquals(0, RateLimitRule.allowance(perMinute, m, 0, T0.plusMillis(999), 60));
        assertEquals(1, RateLimitRule.allowance(perMinute, m, 0, T0.plusSeconds(1), 60));
    }

    @Test
    void everyLimitMustAllowAStartAndTheStrictestWins() {
        RateLimitPolicy p = policy(10, new Window(500, Duration.ofMinutes(1)), new Window(10, Duration.ofSeconds(1)));
        assertEquals(1, RateLimitRule.allowance(p, PartitionState.EMPTY, 0, T0, 50));
        assertEquals(0, RateLimitRule.allowance(p, PartitionState.EMPTY, 10, T0, 50));
        RateLimitPolicy q = policy(3, new Window(5, Duration.ofMinutes(1)), null);
        assertEquals(3, RateLimitRule.allowance(q, PartitionState.EMPTY, 0, T0, 50));
        PartitionState s = RateLimitRule.after(q, PartitionState.EMPTY, T0, 4);
        assertEquals(1, RateLimitRule.allowance(q, s, 0, T0.plusSeconds(1), 50));
        assertEquals(0, RateLimitRule.allowance(q, s, 3, T0.plusSeconds(1), 50));
    }

    @Test
    void aLimitOfZeroNeverAllowsAStart() {
        RateLimitPolicy rate = policy(null, new Window(0, Duration.ofSeconds(1)), null);
        assertEquals(0, RateLimitRule.allowance(rate, PartitionState.EMPTY, 0, T0, 1));
        assertNull(RateLimitRule.nextStart(rate, PartitionState.EMPTY, T0));
        RateLimitPolicy throttle = policy(null, null, new Window(0, Duration.ofSeconds(1)));
        assertEquals(0, RateLimitRule.allowance(throttle, PartitionState.EMPTY, 0, T0, 1));
        assertNull(RateLimitRule.nextStart(throttle, PartitionState.EMPTY, T0));
        assertEquals(T0, RateLimitRule.nextStart(policy(1, null, null), PartitionState.EMPTY, T0));
    }

    @Test
    void nothingStartedChangesNothing() {
        RateLimitPolicy p = policy(null, new Window(2, Duration.ofSeconds(10)), new Window(1, Duration.ofSeconds(1)));
        PartitionState s = RateLimitRule.after(p, PartitionState.EMPTY, T0, 1);
        assertEquals(s, RateLimitRule.after(p, s, T0.plusSeconds(5), 0));
    }

    @Test
    void theHoldNamesTheLimitThatStopsTheKeyExactlyWhenNoneMayStart() {
        RateLimitPolicy p = policy(2, new Window(3, Duration.ofMinutes(1)), new Window(1, Duration.ofSeconds(1)));
        assertNull(RateLimitRule.hold(p, PartitionState.EMPTY, 0, T0));
        assertEquals(new RateLimitRule.Hold("concurrency", 2, 2), RateLimitRule.hold(p, PartitionState.EMPTY, 2, T0));
        PartitionState s = new PartitionState(List.of(T0, T0.plusSeconds(2), T0.plusSeconds(4)), T0.plusSeconds(4));
        assertEquals(new RateLimitRule.Hold("rate", 3, 3), RateLimitRule.hold(p, s, 0, T0.plusSeconds(5)));
        PartitionState t = new PartitionState(List.of(T0), T0);
        assertEquals(new RateLimitRule.Hold("throttle", 1, 1), RateLimitRule.hold(p, t, 0, T0.plusMillis(500)));
        assertNull(RateLimitRule.hold(p, t, 0, T0.plusSeconds(1)));
        // the hold and the allowance agree on every instant of a minute
        for (int ms = 0; ms < 70_000; ms += 250) {
            Instant now = T0.plusMillis(ms);
            for (int active = 0; active < 3; active++) {
                assertEquals(RateLimitRule.allowance(p, s, active, now, 1) == 0,
                        RateLimitRule.hold(p, s, active, now) != null, "at +" + ms + " ms, " + active + " active");
            }
        }
    }

    @Test
    void keysAndWindowsAreValidated() {
        assertThrows(OjsException.class, () -> new RateLimitPolicy("-starts-with-dash", 1, null, null));
        assertThrows(OjsException.class, () -> new RateLimitPolicy("has space", 1, null, null));
        assertThrows(OjsException.class, () -> new RateLimitPolicy(null, 1, null, null));
        assertThrows(OjsException.class, () -> new RateLimitPolicy("k", -1, null, null));
        assertThrows(OjsException.class, () -> new RateLimitPolicy("k".repeat(256), 1, null, null));
        new RateLimitPolicy("tenant:acme-corp:api.stripe_v2", null, null, null);
        assertThrows(OjsException.class, () -> Window.of("rate", 1, Duration.ofDays(2)));
        assertThrows(OjsException.class, () -> Window.of("rate", 1, Duration.ZERO));
        assertThrows(OjsException.class, () -> Window.of("rate", QueueLimits.MAX_RATE + 1L, Duration.ofSeconds(1)));
        assertEquals(Duration.ofMillis(250), Window.of("throttle", 4, Duration.ofSeconds(1)).spacing());
    }
}
