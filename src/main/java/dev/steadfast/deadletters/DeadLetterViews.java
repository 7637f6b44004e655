package dev.steadfast.deadletters;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Body;
import dev.steadfast.http.Timestamps;
import dev.steadfast.jobs.JobView;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.deadletters.DeadLetterFilter;
import dev.steadfast.store.deadletters.DeadLetterStore;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/** Shared by the data-plane and admin dead-letter resources: filters from requests, and the answers. */
public final class DeadLetterViews {

    private DeadLetterViews() {
    }

    /** A filter from its fields (blank ones left out); the gRPC binding's ListDeadLetter reads its queue with it. */
    public static DeadLetterFilter filter(String queue, String type, String errorType, String since, String until) {
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

    static List<JobView> views(ObjectMapper m, List<JobRow> rows) {
        List<JobView> out = new ArrayList<>(rows.size());
        for (JobRow r : rows) {
            out.add(JobView.of(m, r));
        }
        return out;
    }

    static DeadLetterAnswers.Stats stats(DeadLetterStore.Stats s, DeadLetterAnswers.Retention retention) {
        return new DeadLetterAnswers.Stats(s.total(), s.byQueue(), s.byErrorType(), Timestamps.format(s.oldest()),
                Timestamps.format(s.newest()), retention);
    }

    static DeadLetterAnswers.Bulk bulk(DeadLetterService.Bulk b) {
        return new DeadLetterAnswers.Bulk(b.action(), b.matched(), b.succeeded(),
                Math.max(0, b.matched() - b.succeeded()));
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
