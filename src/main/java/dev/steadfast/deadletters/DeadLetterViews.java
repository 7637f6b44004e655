package dev.steadfast.deadletters;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Body;
import dev.steadfast.http.Timestamps;
import dev.steadfast.jobs.JobJson;
import dev.steadfast.store.JobRow;
import dev.steadfast.store.deadletters.DeadLetterFilter;
import dev.steadfast.store.deadletters.DeadLetterStore;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Shared by the data-plane and admin dead-letter resources: filters from requests, and the answers. */
final class DeadLetterViews {

    private DeadLetterViews() {
    }

    static DeadLetterFilter filter(String queue, String type, String errorType, String since, String until) {
        if (queue != null && !queue.isEmpty()) {
            JobRules.checkQueue(queue);
        }
        return new DeadLetterFilter(blankToNull(queue), blankToNull(type), blankToNull(errorType),
                time("since", since), time("until", until));
    }

    /** A filter object from a bulk request body ({@code {"filter": {...}, "confirm": true}}). */
    static DeadLetterFilter filter(Body body) {
        Body f = body.object("filter");
        if (f == null) {
            return DeadLetterFilter.ALL;
        }
        return filter(f.string("queue", false), f.string("type", false), f.string("error_type", false),
                f.string("since", false), f.string("until", false));
    }

    static List<Map<String, Object>> views(ObjectMapper m, List<JobRow> rows) {
        List<Map<String, Object>> out = new ArrayList<>(rows.size());
        for (JobRow r : rows) {
            out.add(JobJson.view(m, r));
        }
        return out;
    }

    static Map<String, Object> stats(DeadLetterStore.Stats s, Map<String, Object> retention) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("total", s.total());
        out.put("by_queue", s.byQueue());
        out.put("by_error_type", s.byErrorType());
        out.put("oldest_at", Timestamps.format(s.oldest()));
        out.put("newest_at", Timestamps.format(s.newest()));
        out.put("retention", retention);
        return out;
    }

    static Map<String, Object> bulk(DeadLetterService.Bulk b) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("action", b.action());
        out.put("matched", b.matched());
        out.put("succeeded", b.succeeded());
        out.put("failed", Math.max(0, b.matched() - b.succeeded()));
        return out;
    }

    private static Instant time(String field, String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeException e) {
            throw OjsException.invalidField(field, "'" + field + "' must be an RFC 3339 timestamp.", "RFC 3339", s);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
