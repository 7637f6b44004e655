package dev.steadfast.cron;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.cron.OverlapPolicy;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.CronRow;

/**
 * A cron schedule on the wire, in both shapes clients use: the HTTP binding's and the official SDKs'
 * ({@code cron}, {@code type}, {@code args}, {@code options}, {@code status}) and the conformance suite's
 * ({@code expression}, {@code job_template}, {@code enabled}), plus ojs-cron.md's {@code overlap_policy},
 * {@code run_count} and {@code last_run_at}. {@code next_run_at} is null while the schedule is paused. Under the
 * {@code enqueue} policy, {@code queued_occurrences} counts the occurrences held behind an unfinished run.
 */
final class CronJson {

    private CronJson() {
    }

    static CronView view(ObjectMapper m, CronRow c) {
        JsonNode t = tree(m, c.templateJson());
        boolean enqueue = OverlapPolicy.ENQUEUE.wire().equals(c.overlapPolicy());
        return new CronView(c.name(), c.expression(), c.expression(), c.timezone(), t.path("type").asText(),
                t.get("args"), t.get("meta"), t.get("options"), t, c.overlapPolicy(), c.enabled(),
                c.enabled() ? "active" : "paused", c.description(), Timestamps.format(c.nextFireAt()),
                Timestamps.format(c.lastFireAt()), c.runCount(), enqueue ? c.queued() : null,
                Timestamps.format(c.createdAt()),
                c.lastJobId() == null ? null : new CronView.LastJob(c.lastJobId().toString(), c.lastJobState()),
                c.lastOutcome() == null ? null : new CronView.LastOccurrence(c.lastOutcome(),
                        Timestamps.format(c.lastOutcomeAt()), c.lastReason()));
    }

    private static JsonNode tree(ObjectMapper m, String json) {
        try {
            return m.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored cron template is not JSON", e);
        }
    }
}
