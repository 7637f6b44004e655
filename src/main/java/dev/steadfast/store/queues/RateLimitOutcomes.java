package dev.steadfast.store.queues;

import dev.steadfast.domain.limits.RateLimitRule;
import dev.steadfast.model.JobRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the keyed claims of one FETCH decided per key, for the rate_limit.* events (ojs-rate-limiting 11.1): the
 * keys a limit held while they had claimable jobs, and the first job each key started. Filled by
 * {@link RateLimitStore}, read by the caller once the FETCH is done; one FETCH's claims run one after another.
 */
public final class RateLimitOutcomes {

    /** A key held by {@code hold}, with the queue and type of one of its waiting jobs. */
    public record Held(String key, RateLimitRule.Hold hold, String queue, String jobType) {
    }

    private final List<Held> held = new ArrayList<>();
    private final Map<String, JobRow> started = new LinkedHashMap<>();

    void held(Held h) {
        held.add(h);
    }

    void started(String key, JobRow job) {
        started.putIfAbsent(key, job);
    }

    public List<Held> held() {
        return held;
    }

    /** The first job each key started, by key. */
    public Map<String, JobRow> started() {
        return started;
    }
}
