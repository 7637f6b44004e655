package dev.steadfast.domain.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Valid/invalid tables, formatting and round-trips for the strict ISO 8601 duration parser. */
class Iso8601DurationTest {

    @ParameterizedTest(name = "{0} = {1} ns")
    @CsvSource({
        "PT1S, 1000000000",
        "PT0.5S, 500000000",
        "PT1.25S, 1250000000",
        "PT1.5S, 1500000000",
        "PT0.001S, 1000000",
        "PT0.000000001S, 1",
        "PT0.0000000019S, 1",
        "PT0S, 0",
        "P0D, 0",
        "PT5M, 300000000000",
        "PT1M30S, 90000000000",
        "PT1H, 3600000000000",
        "PT24H, 86400000000000",
        "P1D, 86400000000000",
        "P1DT2H, 93600000000000",
        "P1M, 2592000000000000",
        "P1Y, 31536000000000000",
        "P1Y2M3DT4H5M6.5S, 36993906500000000",
        "PT001S, 1000000000",
    })
    void parsesValidDurations(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), Iso8601Duration.parse("retry.initial_interval", text));
    }

    @ParameterizedTest(name = "\"{0}\" is rejected")
    @ValueSource(strings = {
        "", "P", "PT", "1S", "PT-1S", "-PT1S", "pt1s", "PT1s", "p1d", "P1W", "PT1.S", "PT.5S", "PT1,5S",
        "P1DT", "PT1S ", " PT1S", "PT1H2H", "PT1S1M", "P1H", "PT1D", "PT1.5M", "P1.5D", "PT1S\n",
        "PT\u0661S", "P1Y1Y", "PTS", "PT1", "P36501D", "PT99999999999999999999999999S", "T1S", "PT+1S",
    })
    void rejectsInvalidDurations(String text) {
        PolicyViolation v = assertThrows(PolicyViolation.class, () -> Iso8601Duration.parse("retry.max_interval", text));
        assertEquals("retry.max_interval", v.field());
        assertTrue(v.getMessage().contains("max_interval"), v.getMessage());
    }

    @Test
    void rejectsNull() {
        PolicyViolation v = assertThrows(PolicyViolation.class, () -> Iso8601Duration.parse("retry.initial_interval", null));
        assertEquals("retry.initial_interval", v.field());
    }

    @Test
    void acceptsExactlyTheMaximum() {
        assertEquals(Iso8601Duration.MAX, Iso8601Duration.parse("f", "P36500D"));
        assertEquals(Iso8601Duration.MAX, Iso8601Duration.parse("f", "P100Y"));
    }

    @ParameterizedTest(name = "{0} ns formats as {1}")
    @CsvSource({
        "1000000000, PT1S",
        "500000000, PT0.5S",
        "1250000000, PT1.25S",
        "300000000000, PT5M",
        "3600000000000, PT1H",
        "0, PT0S",
        "86400000000000, PT24H",
        "90500000000, PT1M30.5S",
    })
    void formatsCanonically(long nanos, String expected) {
        assertEquals(expected, Iso8601Duration.format(Duration.ofNanos(nanos)));
    }

    @Test
    void formatRejectsNegative() {
        assertThrows(IllegalArgumentException.class, () -> Iso8601Duration.format(Duration.ofSeconds(-1)));
    }

    @Test
    @DisplayName("format(d) always parses back to d")
    void formatRoundTrips() {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            Duration d = Duration.ofNanos((long) (random.nextDouble() * Iso8601Duration.MAX.toNanos()) / pick(random));
            String text = Iso8601Duration.format(d);
            assertTrue(Iso8601Duration.SCHEMA_PATTERN.matcher(text).matches(), text);
            assertEquals(d, Iso8601Duration.parse("f", text), text);
        }
    }

    @Test
    @DisplayName("the parser accepts exactly the strings the spec's schema pattern accepts")
    void parserMatchesSchemaPattern() {
        Random random = new Random(7);
        String alphabet = "PTYMDHS.0123456789-W ";
        int accepted = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder(random.nextBoolean() ? "P" : "");
            int len = random.nextInt(9);
            for (int j = 0; j < len; j++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String text = sb.toString();
            boolean schemaOk = Iso8601Duration.SCHEMA_PATTERN.matcher(text).matches();
            String outcome = outcome(text);
            // The only extra rule is the size limit, which the schema has no way to express.
            assertEquals(schemaOk, !outcome.equals("syntax"), text + " -> " + outcome);
            accepted += outcome.equals("ok") ? 1 : 0;
        }
        assertTrue(accepted > 100, "fuzzer should hit valid strings, got " + accepted);
    }

    private static String outcome(String text) {
        try {
            Iso8601Duration.parse("f", text);
            return "ok";
        } catch (PolicyViolation e) {
            return e.getMessage().contains("must be at most") ? "too large" : "syntax";
        }
    }

    private static long pick(Random random) {
        long[] scales = {1, 1_000, 1_000_000, 1_000_000_000L};
        return scales[random.nextInt(scales.length)];
    }
}
