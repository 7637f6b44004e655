package dev.steadfast.cron;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.cron.OverlapPolicy;
import dev.steadfast.http.Timestamps;
import dev.steadfast.store.cron.CronRow;
import java.util.LinkedHashMap;
import java.util.Map;

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

    static Map<String, Object> view(ObjectMapper m, CronRow c) {
        JsonNode t = tree(m, c.templateJson());
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", c.name());
        v.put("cron", c.expression());
        v.put("expression", c.expression());
        v.put("timezone", c.timezone());
        v.put("type", t.path("type").asText());
        v.put("args", t.get("args"));
        v.put("meta", t.get("meta"));
        v.put("options", t.get("options"));
        v.put("job_template", t);
        v.put("overlap_policy", c.overlapPolicy());
        v.put("enabled", c.enabled());
        v.put("status", c.enabled() ? "active" : "paused");
        if (c.description() != null) {
            v.put("description", c.description());
        }
        v.put("next_run_at", Timestamps.format(c.nextFireAt()));
        v.put("last_run_at", Timestamps.format(c.lastFireAt()));
        v.put("run_count", c.runCount());
        if (OverlapPolicy.ENQUEUE.wire().equals(c.overlapPolicy())) {
            v.put("queued_occurrences", c.queued());
        }
        v.put("created_at", Timestamps.format(c.createdAt()));
        if (c.lastJobId() != null) {
            v.put("last_job_id", c.lastJobId().toString());
            v.put("last_job_state", c.lastJobState());
        }
        if (c.lastOutcome() != null) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("outcome", c.lastOutcome());
            o.put("scheduled_time", Timestamps.format(c.lastOutcomeAt()));
            if (c.lastReason() != null) {
                o.put("reason", c.lastReason());
            }
            v.put("last_occurrence", o);
        }
        return v;
    }

    private static JsonNode tree(ObjectMapper m, String json) {
        try {
            return m.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("stored cron template is not JSON", e);
        }
    }
}
