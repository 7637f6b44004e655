package dev.steadfast.console.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.console.Format;
import dev.steadfast.model.JobRow;
import java.time.Instant;
import java.util.List;

/**
 * The dead-letter page: the filter, the choices for its selects (queues and error types that have dead
 * letters), how many match, one page of them, and the next page's link.
 */
public record DeadLetterView(DeadLetterQuery query, List<String> queues, List<String> errorTypes, String total,
                             long matching, List<Line> jobs, String nextHref, String firstHref) {

    /** One dead letter. */
    public record Line(String id, String href, String type, String queue, String errorType, String message,
                       String attempts, String discarded, String discardedIso, String ago) {
    }

    static Line line(ObjectMapper json, JobRow j, Instant now) {
        String type = "", message = "";
        try {
            JsonNode e = j.errorJson() == null ? null : json.readTree(j.errorJson());
            if (e != null) {
                type = e.path("type").asText("");
                message = e.path("message").asText("");
            }
        } catch (Exception ignored) {
            // shown without an error
        }
        if (message.length() > 300) {
            message = message.substring(0, 300) + "…";
        }
        return new Line(j.id().toString(), "/admin/jobs/" + j.id(), j.type(), j.queue(), type, message,
                j.attempt() + "/" + j.maxAttempts() + (j.run() > 1 ? " (run " + j.run() + ")" : ""),
                Format.time(j.discardedAt()), Format.iso(j.discardedAt()), Format.relative(j.discardedAt(), now));
    }
}
