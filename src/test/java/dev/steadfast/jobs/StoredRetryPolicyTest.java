package dev.steadfast.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.retry.OnExhaustion;
import dev.steadfast.domain.retry.RetryPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a job row keeps of its retry policy, and the whole policy INFO and the console show from it. */
class StoredRetryPolicyTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void theDefaultIsStoredAsAnEmptyObjectAndShownWhole() throws Exception {
        assertEquals("{}", StoredRetryPolicy.store(json, RetryPolicy.DEFAULT));
        assertEquals(RetryPolicy.DEFAULT, StoredRetryPolicy.policy(json, "{}"));
        assertEquals(RetryPolicy.DEFAULT.toWire(), json.readValue(StoredRetryPolicy.effective(json, "{}"), Map.class));
    }

    @Test
    void aPolicyIsStoredAsWhatDiffersAndShownWhole() throws Exception {
        RetryPolicy p = RetryPolicy.merge(RetryPolicy.DEFAULT,
                Map.of("max_attempts", 7, "on_exhaustion", "dead_letter"));
        String stored = StoredRetryPolicy.store(json, p);
        assertEquals("{\"max_attempts\":7,\"on_exhaustion\":\"dead_letter\"}", stored);
        assertEquals(p, StoredRetryPolicy.policy(json, stored));
        assertEquals(OnExhaustion.DEAD_LETTER, StoredRetryPolicy.policy(json, stored).onExhaustion());
        assertEquals(p.toWire(), json.readValue(StoredRetryPolicy.effective(json, stored), Map.class));
    }

    @Test
    void aWholePolicyStoredBeforeReadsTheSame() throws Exception {
        RetryPolicy p = RetryPolicy.DEFAULT.withMaxAttempts(9);
        String whole = json.writeValueAsString(p.toWire());
        assertEquals(p, StoredRetryPolicy.policy(json, whole));
        assertEquals(p.toWire(), json.readValue(StoredRetryPolicy.effective(json, whole), Map.class));
    }
}
