package dev.steadfast.domain.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The stored form of a policy (what a job row keeps): only what differs from the spec default, read back whole. */
class RetryPolicyStoredTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void theDefaultStoresNothing() {
        assertTrue(RetryPolicy.DEFAULT.stored().isEmpty());
        assertEquals(RetryPolicy.DEFAULT, RetryPolicy.fromStored(null));
        assertEquals(RetryPolicy.DEFAULT, RetryPolicy.fromStored(Map.of()));
    }

    @Test
    void onlyTheFieldsThatDifferAreStored() {
        RetryPolicy p = RetryPolicy.DEFAULT.withMaxAttempts(5);
        assertEquals(Map.of("max_attempts", 5), p.stored());
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyPolicyComesBackFromItsStoredFormThroughJson() throws Exception {
        Random r = new Random(20261129);
        int checked = 0;
        for (int i = 0; i < 5_000; i++) {
            RetryPolicy p = random(r);
            if (p == null) {
                continue;
            }
            String stored = json.writeValueAsString(p.stored());
            assertEquals(p, RetryPolicy.fromStored(json.readValue(stored, Map.class)), stored);
            // rows written before the stored form kept the whole canonical policy: it reads back the same
            String whole = json.writeValueAsString(p.toWire());
            assertEquals(p, RetryPolicy.fromStored(json.readValue(whole, Map.class)), whole);
            checked++;
        }
        assertTrue(checked > 2_000, "valid random policies: " + checked);
    }

    /** A random policy, or null when the draw breaks a rule of the constructor. */
    private static RetryPolicy random(Random r) {
        Duration[] durations = {Duration.ofMillis(1), Duration.ofSeconds(1), Duration.ofSeconds(30),
                Duration.ofMinutes(5), Duration.ofHours(1)};
        BackoffStrategy strategy = BackoffStrategy.values()[r.nextInt(BackoffStrategy.values().length)];
        Duration initial = durations[r.nextInt(durations.length)];
        Duration max = r.nextInt(3) == 0 ? Duration.ofMinutes(5) : durations[r.nextInt(durations.length)];
        List<Duration> intervals = new ArrayList<>();
        if (strategy == BackoffStrategy.CUSTOM) {
            for (int k = 0, n = 1 + r.nextInt(4); k < n; k++) {
                intervals.add(durations[r.nextInt(durations.length)]);
            }
        }
        List<String> nonRetryable = r.nextBoolean() ? List.of() : List.of("validation.*", "payment.declined");
        try {
            return new RetryPolicy(r.nextInt(3) == 0 ? 3 : r.nextInt(30), initial,
                    r.nextBoolean() ? 2.0 : 1.0 + r.nextInt(8) / 2.0, max, r.nextBoolean(), nonRetryable,
                    OnExhaustion.values()[r.nextInt(OnExhaustion.values().length)], strategy, intervals);
        } catch (PolicyViolation v) {
            return null;
        }
    }
}
