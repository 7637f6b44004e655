package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobIdsTest {

    @Test
    void idsAreLowercaseVersion7WithTheRfcVariantAndTheGivenTime() {
        long millis = 1_770_000_000_123L;
        UUID id = JobIds.next(millis);
        assertEquals(7, id.version());
        assertEquals(2, id.variant());
        assertEquals(millis, id.getMostSignificantBits() >>> 16);
        assertTrue(JobIds.isUuidV7(id.toString()));
    }

    @Test
    void idsIncreaseStrictlyWithinOneMillisecondAndAcrossMany() {
        long millis = 1_770_000_000_000L;
        UUID prev = JobIds.next(millis);
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            UUID next = JobIds.next(millis + i / 5000); // 5000 per millisecond overflows the 12-bit counter
            assertTrue(next.toString().compareTo(prev.toString()) > 0, "ids must sort in creation order");
            assertTrue(seen.add(next));
            prev = next;
        }
    }

    @Test
    void plainIdsHaveTheSameFormAndShareTheOrderWithJobIds() {
        long millis = 1_790_000_000_000L;
        UUID prev = JobIds.next(millis);
        for (int i = 0; i < 10_000; i++) {
            UUID next = i % 2 == 0 ? JobIds.nextPlain(millis + i / 5000) : JobIds.next(millis + i / 5000);
            assertEquals(7, next.version());
            assertEquals(2, next.variant());
            assertTrue(JobIds.isUuidV7(next.toString()));
            assertTrue(next.toString().compareTo(prev.toString()) > 0, "one order for both kinds of id");
            prev = next;
        }
    }

    @Test
    void aClockGoingBackwardsStillYieldsIncreasingIds() {
        UUID a = JobIds.next(1_780_000_000_000L);
        UUID b = JobIds.next(1_779_000_000_000L);
        assertTrue(b.toString().compareTo(a.toString()) > 0);
    }

    @Test
    void validationAcceptsOnlyLowercaseHyphenatedV7() {
        assertTrue(JobIds.isUuidV7("019461a8-1a2b-7c3d-8e4f-5a6b7c8d9e0f"));
        assertFalse(JobIds.isUuidV7("019461A8-1A2B-7C3D-8E4F-5A6B7C8D9E0F"));
        assertFalse(JobIds.isUuidV7("550e8400-e29b-41d4-a716-446655440000"));
        assertFalse(JobIds.isUuidV7("019461a8-1a2b-7c3d-ce4f-5a6b7c8d9e0f"));
        assertFalse(JobIds.isUuidV7("019461a81a2b7c3d8e4f5a6b7c8d9e0f"));
        assertFalse(JobIds.isUuidV7(""));
        assertFalse(JobIds.isUuidV7(null));
    }
}
