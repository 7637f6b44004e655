package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Lease expiry arithmetic and heartbeat extension. */
class LeaseTest {

    private static final Instant NOW = Instant.parse("2026-02-12T10:30:00Z");
    private static final Duration VIS = Duration.ofSeconds(30);

    @Test
    void expiryIsTheEarlierOfVisibilityAndDeadline() {
        assertEquals(NOW.plusSeconds(30), Lease.expiry(NOW, VIS, null));
        assertEquals(NOW.plusSeconds(30), Lease.expiry(NOW, VIS, NOW.plusSeconds(60)));
        assertEquals(NOW.plusSeconds(10), Lease.expiry(NOW, VIS, NOW.plusSeconds(10)));
    }

    @Test
    void visibilityMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> Lease.expiry(NOW, Duration.ZERO, null));
        assertThrows(IllegalArgumentException.class, () -> Lease.expiry(NOW, Duration.ofSeconds(-1), null));
        assertThrows(IllegalArgumentException.class, () -> Lease.expiry(NOW, null, null));
    }

    @Test
    void heartbeatExtendsFromNow() {
        Lease lease = new Lease("worker-1", Lease.expiry(NOW, VIS, null));
        Lease extended = lease.extend(NOW.plusSeconds(20), VIS, null);
        assertEquals(NOW.plusSeconds(50), extended.expiresAt());
        assertEquals("worker-1", extended.owner());
    }

    @Test
    void heartbeatWithShorterVisibilityDoesNotShortenTheLease() {
        Lease lease = new Lease("w", NOW.plusSeconds(30));
        assertEquals(NOW.plusSeconds(30), lease.extend(NOW.plusSeconds(1), Duration.ofSeconds(5), null).expiresAt());
    }

    @Test
    void heartbeatNeverPassesTheDeadline() {
        Instant deadline = NOW.plusSeconds(40);
        Lease lease = new Lease("w", Lease.expiry(NOW, VIS, deadline));
        assertEquals(deadline, lease.extend(NOW.plusSeconds(25), VIS, deadline).expiresAt());
        Lease beyond = new Lease("w", NOW.plusSeconds(60));
        assertEquals(deadline, beyond.extend(NOW.plusSeconds(1), VIS, deadline).expiresAt(), "a lowered deadline wins");
    }

    @Test
    void heartbeatAtOrAfterExpiryIsRefused() {
        Lease lease = new Lease("w", NOW.plusSeconds(30));
        assertFalse(lease.isExpired(NOW.plusSeconds(29)));
        assertTrue(lease.isExpired(NOW.plusSeconds(30)));
        assertThrows(IllegalStateException.class, () -> lease.extend(NOW.plusSeconds(30), VIS, null));
    }
}
