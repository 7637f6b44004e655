package dev.steadfast.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.limits.QueueLimits;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class QueueLimitsFormTest {

    @Test
    void typedValuesBecomeTheLimitsAndEmptyFieldsNoLimit() {
        assertEquals(new QueueLimits(100, Duration.ofMinutes(1), 4),
                new QueueLimitsForm(" 4 ", "100", "PT1M").limits());
        assertEquals(new QueueLimits(null, null, null), new QueueLimitsForm("", " ", "").limits());
        assertEquals(new QueueLimits(null, null, 0), new QueueLimitsForm("0", "", "").limits(), "0 stops delivery");
        QueueLimitsForm shown = QueueLimitsForm.of(new QueueLimits(5, Duration.ofSeconds(30), null));
        assertEquals(new QueueLimitsForm("", "5", "PT30S"), shown, "the form shows what is in force");
        assertEquals(new QueueLimits(5, Duration.ofSeconds(30), null), shown.limits());
    }

    @Test
    void badValuesAreRefusedNamingTheFieldByTheSameRulesAsTheApi() {
        String[][] bad = {{"x", "", "", "concurrency"}, {"-2", "", "", "concurrency"}, {"1.5", "", "", "concurrency"},
            {"", "ten", "PT1M", "rate_limit"}, {"", "5", "", "rate.period"}, {"", "", "PT1M", "rate.period"},
            {"", "5", "PT0S", "rate.period"}, {"", "5", "P2D", "rate.period"}, {"", "10001", "PT1M", "rate.limit"},
            {"", "5", "1 minute", "rate_period"}};
        for (String[] b : bad) {
            OjsException e = assertThrows(OjsException.class, () -> new QueueLimitsForm(b[0], b[1], b[2]).limits(),
                    String.join("|", b));
            assertEquals(400, e.code().status());
            assertTrue(e.details().toString().contains(b[3]), b[3] + " in " + e.details());
        }
    }
}
