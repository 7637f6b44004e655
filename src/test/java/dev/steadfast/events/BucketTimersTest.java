package dev.steadfast.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BucketTimersTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void instantsOfOneKeyAndBucketShareATimerThatFiresAfterTheBucket() throws InterruptedException {
        Clock clock = Clock.systemUTC();
        BucketTimers timers = new BucketTimers(vertx, clock, 100, 20, Duration.ofMinutes(1), 10);
        Instant base = Instant.ofEpochMilli((clock.millis() / 100 + 3) * 100); // a bucket start 200-300 ms ahead
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch fired = new CountDownLatch(2);
        long[] firedAt = new long[1];
        assertTrue(timers.at("q", base.plusMillis(10), () -> {
            firedAt[0] = clock.millis();
            runs.incrementAndGet();
            fired.countDown();
        }));
        assertFalse(timers.at("q", base.plusMillis(90), runs::incrementAndGet), "same key, same bucket");
        assertTrue(timers.at("other", base.plusMillis(90), fired::countDown), "another key has its own timer");
        assertEquals(2, timers.pending());
        assertTrue(fired.await(5, TimeUnit.SECONDS));
        assertEquals(1, runs.get());
        assertTrue(firedAt[0] >= base.toEpochMilli() + 100 + 20, "fires after the bucket's end and the margin");
        Thread.sleep(50);
        assertEquals(0, timers.pending());
        assertTrue(timers.at("q", base.plusMillis(10), () -> { }), "a fired bucket can be set again");
    }

    @Test
    void instantsBeyondTheHorizonOrPastTheLimitSetNoTimer() {
        Clock fixed = Clock.fixed(Instant.parse("2026-11-26T10:00:00Z"), java.time.ZoneOffset.UTC);
        BucketTimers timers = new BucketTimers(vertx, fixed, 10, 1, Duration.ofSeconds(30), 2);
        Instant now = fixed.instant();
        assertFalse(timers.at("q", now.plusSeconds(31), () -> { }), "beyond the horizon");
        assertTrue(timers.at("q", now.plusSeconds(1), () -> { }));
        assertTrue(timers.at("q", now.plusSeconds(2), () -> { }));
        assertFalse(timers.at("q", now.plusSeconds(3), () -> { }), "at most 2 pending");
        assertEquals(2, timers.pending());
    }
}
