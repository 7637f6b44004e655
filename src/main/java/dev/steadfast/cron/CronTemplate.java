package dev.steadfast.cron;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.http.Json;
import dev.steadfast.http.Timestamps;
import dev.steadfast.jobs.EnqueueCommand;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What each occurrence of a schedule enqueues, stored as {@code {"type", "args", "meta", "options": {queue,
 * priority, tags, timeout_ms, visibility_timeout_ms, retry}}} and turned back into a PUSH at fire time with the
 * correlation the overlap policy and operators need in {@code meta}: {@code cron_name} and
 * {@code cron_triggered_at} (ojs-cron.md 6.3).
 */
final class CronTemplate {

    private CronTemplate() {
    }

    static String write(ObjectMapper m, EnqueueCommand c) {
        ObjectNode t = m.createObjectNode();
        t.put("type", c.type());
        t.set("args", tree(m, c.argsJson()));
        t.set("meta", c.metaJson() == null ? m.createObjectNode() : tree(m, c.metaJson()));
        ObjectNode o = t.putObject("options");
        if (c.queue() != null) {
            o.put("queue", c.queue());
        }
        if (c.priority() != null) {
            o.put("priority", c.priority());
        }
        if (c.tags() != null) {
            ArrayNode tags = o.putArray("tags");
            c.tags().forEach(tags::add);
        }
        if (c.timeoutMs() != null) {
            o.put("timeout_ms", c.timeoutMs());
        }
        if (c.visibilityTimeoutMs() != null) {
            o.put("visibility_timeout_ms", c.visibilityTimeoutMs());
        }
        if (c.retry() != null) {
            o.set("retry", m.valueToTree(c.retry()));
        }
        return Json.write(m, t);
    }

    /**
     * The PUSH for the occurrence at {@code fireAt}; runs lease for {@code defaultVisibilityMs} unless set;
     * {@code held}: enqueued pending, to wait for the run before it (enqueue overlap policy).
     */
    @SuppressWarnings("unchecked")
    static EnqueueCommand occurrence(ObjectMapper m, String templateJson, String cronName, Instant fireAt,
                                     long defaultVisibilityMs, boolean held) {
        JsonNode t = tree(m, templateJson);
        JsonNode o = t.path("options");
        ObjectNode meta = t.path("meta").isObject() ? ((ObjectNode) t.get("meta")).deepCopy() : m.createObjectNode();
        meta.put("cron_name", cronName);
        meta.put("cron_triggered_at", Timestamps.format(fireAt));
        List<String> tags = null;
        if (o.has("tags")) {
            tags = new ArrayList<>();
            for (JsonNode tag : o.get("tags")) {
                tags.add(tag.asText());
            }
        }
        return new EnqueueCommand(null, t.get("type").asText(), o.has("queue") ? o.get("queue").asText() : null,
                Json.write(m, t.get("args")), Json.write(m, meta), null,
                o.has("priority") ? o.get("priority").asInt() : null, tags,
                o.has("timeout_ms") ? o.get("timeout_ms").asLong() : null,
                o.has("visibility_timeout_ms") ? o.get("visibility_timeout_ms").asLong() : defaultVisibilityMs,
                null, null, held, o.has("retry") ? m.convertValue(o.get("retry"), Map.class) : null, null, null,
                null, meta.path("tenant_id").isTextual() ? meta.get("tenant_id").textValue() : null);
    }

    private static JsonNode tree(ObjectMapper m, String json) {
        try {
            return m.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
