package dev.steadfast.console.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.console.Format;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console's retry preview names a custom strategy's delays and shows one step per listed retry. */
class RetryPreviewsTest {

    @Test
    void aCustomScheduleIsShownAsListed() {
        String policy = "{\"max_attempts\":5,\"backoff_strategy\":\"custom\",\"jitter\":false,"
                + "\"intervals\":[\"PT5S\",\"PT20S\",\"PT45S\"]}";
        JobDetailView.RetryPreview p = RetryPreviews.of(new ObjectMapper(), policy);
        assertTrue(p.summary().startsWith("custom delays " + Format.duration(Duration.ofSeconds(5)) + ", "),
                p.summary());
        List<String> delays = p.steps().stream().map(JobDetailView.Step::delay).toList();
        assertEquals(List.of(Format.duration(Duration.ofSeconds(5)), Format.duration(Duration.ofSeconds(20)),
                Format.duration(Duration.ofSeconds(45)), Format.duration(Duration.ofSeconds(45))), delays);
        assertTrue(p.policy().contains("\"initial_interval\" : \"PT1S\""), "the whole effective policy: " + p.policy());
    }

    @Test
    void aJobWithTheDefaultPolicyStoresNoneAndShowsTheDefault() {
        JobDetailView.RetryPreview p = RetryPreviews.of(new ObjectMapper(), null);
        assertTrue(p.summary().startsWith("exponential backoff from "), p.summary());
        assertTrue(p.summary().contains("3 attempts, then discard"), p.summary());
        assertEquals(2, p.steps().size());
    }
}
