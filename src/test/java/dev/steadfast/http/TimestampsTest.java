package dev.steadfast.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The direct formatting writes exactly what the pattern formatter writes. */
class TimestampsTest {

    private static final DateTimeFormatter PATTERN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    @Test
    void sameTextAsThePatternFormatter() {
        SplittableRandom r = new SplittableRandom(42);
        long min = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
        long max = Instant.parse("+12000-12-31T23:59:59Z").getEpochSecond();
        for (int k = 0; k < 100_000; k++) {
            Instant i = Instant.ofEpochSecond(r.nextLong(min, max), r.nextInt(1_000_000_000));
            assertEquals(PATTERN.format(i), Timestamps.format(i), i.toString());
        }
        for (String s : new String[] {"1970-01-01T00:00:00Z", "2026-02-12T10:30:00.123Z", "9999-12-31T23:59:59.999999999Z",
                "+10000-01-01T00:00:00Z", "-0001-12-31T23:59:59.5Z", "2024-02-29T12:00:00.000999Z"}) {
            Instant i = Instant.parse(s);
            assertEquals(PATTERN.format(i), Timestamps.format(i), s);
        }
        assertNull(Timestamps.format(null));
    }
}
