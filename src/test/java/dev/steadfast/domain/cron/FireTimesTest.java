package dev.steadfast.domain.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FireTimesTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

    @Test
    void theNextOccurrencesFollowOneAnotherStrictlyAfterTheInstant() {
        FireTimes hourly = after -> Optional.of(after.plusSeconds(3600 - after.getEpochSecond() % 3600));
        assertEquals(List.of(T0.plus(Duration.ofHours(1)), T0.plus(Duration.ofHours(2)), T0.plus(Duration.ofHours(3))),
                hourly.next(T0, 3), "an occurrence at the instant itself is not next");
        assertEquals(List.of(), hourly.next(T0, 0));
    }

    @Test
    void aScheduleThatStopsGivesFewer() {
        Instant end = T0.plus(Duration.ofHours(2));
        FireTimes twice = after -> {
            Instant n = after.plusSeconds(3600 - after.getEpochSecond() % 3600);
            return n.isAfter(end) ? Optional.empty() : Optional.of(n);
        };
        assertEquals(List.of(T0.plus(Duration.ofHours(1)), end), twice.next(T0, 5));
    }
}
