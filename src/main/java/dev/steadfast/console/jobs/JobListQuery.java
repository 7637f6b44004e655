package dev.steadfast.console.jobs;

import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.Format;
import dev.steadfast.console.Links;
import dev.steadfast.domain.JobState;
import dev.steadfast.store.JobFilter;
import java.time.Instant;

/**
 * The jobs page's parameters, parsed: filters, the search box ({@code q}: a job id, or text found in args, meta
 * or errors), the order ({@code newest} or {@code oldest}) and the keyset cursor. Builds the links that keep the
 * filter while paging.
 */
public record JobListQuery(JobState state, String queue, String type, String tag, Instant from, Instant to,
                           String q, boolean oldest, String after, String before) {

    static JobListQuery parse(String state, String queue, String type, String tag, String from, String to, String q,
                              String sort, String after, String before) {
        String s = ConsoleParams.text(sort);
        if (s != null && !s.equals("newest") && !s.equals("oldest")) {
            throw dev.steadfast.domain.OjsException.invalidField("sort", "'sort' is 'newest' or 'oldest'.",
                    "newest | oldest", s);
        }
        return new JobListQuery(ConsoleParams.state(state), ConsoleParams.queue(queue), ConsoleParams.text(type),
                ConsoleParams.text(tag), ConsoleParams.time("from", from), ConsoleParams.time("to", to),
                ConsoleParams.text(q), "oldest".equals(s), ConsoleParams.text(after), ConsoleParams.text(before));
    }

    /** The store's filter; a type ending in {@code *} matches by prefix. */
    JobFilter filter() {
        boolean prefix = type != null && type.endsWith("*");
        String t = prefix ? type.substring(0, type.length() - 1) : type;
        return new JobFilter(state, queue, t, prefix, tag, from, to, q);
    }

    String href(String afterCursor, String beforeCursor) {
        return Links.to("/admin/jobs").with("state", stateName()).with("queue", queue).with("type", type)
                .with("tag", tag).with("from", Format.input(from)).with("to", Format.input(to)).with("q", q)
                .with("sort", oldest ? "oldest" : null).with("after", afterCursor).with("before", beforeCursor)
                .toString();
    }

    public String stateName() {
        return state == null ? "" : state.wire();
    }

    public String fromInput() {
        return Format.input(from);
    }

    public String toInput() {
        return Format.input(to);
    }

    public boolean filtered() {
        return state != null || queue != null || type != null || tag != null || from != null || to != null || q != null;
    }
}
