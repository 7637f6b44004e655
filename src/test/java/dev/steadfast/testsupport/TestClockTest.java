package dev.steadfast.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The server reads the test clock, it starts at the real time, moving it moves what the HTTP API answers, and it is
 * back at the real time for the next test.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestClockTest {

    @Inject
    Clock serverClock;

    @Inject
    TestClock clock;

    @Test
    @Order(1)
    void theServerReadsTheTestClockWhichStartsAtTheRealTime() {
        assertSame(clock, unwrap(serverClock), "the server's Clock bean is the test clock");
        assertEquals(Duration.ZERO, clock.offset());
        assertTrue(Duration.between(Instant.now(), clock.instant()).abs().compareTo(Duration.ofSeconds(5)) < 0,
                "within the database clock's offset of this machine's: " + clock.instant());
    }

    @Test
    @Order(2)
    void movingTheClockMovesTheServersTime() {
        Instant moved = clock.advance(Duration.ofDays(3));
        String id = Api.enqueue(Api.obj("type", "clock.t", "args", Api.arr(), "options",
                Api.obj("queue", "clock-q", "delay", "PT1H")));
        Instant scheduled = Instant.parse((String) Api.jobView(id).get("scheduled_at"));
        Duration ahead = Duration.between(moved.plus(Duration.ofHours(1)), scheduled);
        assertTrue(!ahead.isNegative() && ahead.compareTo(Duration.ofSeconds(30)) < 0,
                "an hour after the moved clock: " + scheduled + " vs " + moved);
    }

    @Test
    @Order(3)
    void eachTestStartsAtTheRealTimeAgain() {
        assertEquals(Duration.ZERO, clock.offset(), "the previous test's three days are gone");
        Duration furthest = Duration.between(clock.instant(), clock.furthest());
        assertTrue(furthest.compareTo(Duration.ofDays(3).minusSeconds(1)) > 0, "but not how far it went: " + furthest);
    }

    @Test
    void aFrozenClockMovesOnlyByHand() {
        TestClock frozen = TestClock.at(Instant.parse("2026-11-21T10:00:00Z"));
        assertEquals(Instant.parse("2026-11-21T10:00:00Z"), frozen.instant());
        assertEquals(Instant.parse("2026-11-21T10:01:00Z"), frozen.advance(Duration.ofMinutes(1)));
        frozen.set(Instant.parse("2026-11-20T00:00:00Z"));
        assertEquals(Instant.parse("2026-11-20T00:00:00Z"), frozen.instant());
        frozen.reset();
        assertEquals(Instant.parse("2026-11-21T10:00:00Z"), frozen.instant());
        assertEquals(Instant.parse("2026-11-21T10:01:00Z"), frozen.furthest());
    }

    /** An injected singleton is the instance itself; a client proxy would hide it behind its own class. */
    private static Object unwrap(Clock c) {
        return c instanceof io.quarkus.arc.ClientProxy p ? p.arc_contextualInstance() : c;
    }
}
