package dev.steadfast.clock;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.ClockOffset;
import dev.steadfast.store.DatabaseTime;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The server's clock follows PostgreSQL's: the injected Clock is the database clock, and its reading lies within
 * the round trip of a direct read of the database's clock (the database here runs on this machine, so the
 * offset itself is about zero; ClockOffsetTest covers the arithmetic with real offsets).
 */
@QuarkusTest
class DatabaseClockTest {

    @Inject
    Clock clock;

    @Inject
    DatabaseClock databaseClock;

    @Inject
    DatabaseTime database;

    @Test
    void theServerReadsTheDatabaseClock() {
        // In @QuarkusTest runs the server's clock is testsupport.TestClock, over the database clock.
        TestClock test = assertInstanceOf(TestClock.class, unproxied(clock));
        assertSame(unproxied(databaseClock), unproxied(test.base()));
        Duration measured = databaseClock.measure().await().atMost(Duration.ofSeconds(10));
        assertTrue(measured.abs().compareTo(Duration.ofSeconds(1)) < 0, "same machine: " + measured);
        Instant before = clock.instant();
        ClockOffset.Sample direct = database.sample(Clock.systemUTC()).await().atMost(Duration.ofSeconds(10));
        Instant after = clock.instant();
        // the database read its clock between our two readings, give or take the offset's own uncertainty
        Duration slack = direct.roundTrip().plusMillis(5);
        assertTrue(!direct.database().isBefore(before.minus(slack)) && !direct.database().isAfter(after.plus(slack)),
                before + " <= " + direct.database() + " <= " + after);
    }

    private static Object unproxied(Object c) {
        return c instanceof io.quarkus.arc.ClientProxy p ? p.arc_contextualInstance() : c;
    }
}
