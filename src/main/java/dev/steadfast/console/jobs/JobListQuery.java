package dev.steadfast.console.jobs;

import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.Format;
import dev.steadfast.console.Links;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.model.JobFilter;
import java.time.Instant;
import java.util.stream.Collectors;

/**
 * The jobs page's parameters, parsed: filters, the search box ({@code q}: a job id, text found in args, meta or
 * errors, and {@code args.<path>:<value>} conditions, see {@link JobSearchSyntax}), the order ({@code newest} or
 * {@code oldest}) and the keyset cursor. Builds the links that keep the filter while paging.
 */
record JobListQuery(JobState state, String queue, String type, String tag, Instant from, Instant to,
                           String q, boolean oldest, String after, String before, JobSearchSyntax.Parsed search) {

    static JobListQuery parse(String state, String queue, String type, String tag, String from, String to, String q,
                              String sort, String after, String before) {
        String s = ConsoleParams.text(sort);
        if (s != null && !s.equals("newest") && !s.equals("oldest")) {
            throw OjsException.invalidField("sort", "'sort' is 'newest' or 'oldest'.",
                    "newest | oldest", s);
        }
        String text = ConsoleParams.text(q);
        return new JobListQuery(ConsoleParams.state(state), ConsoleParams.queue(queue), ConsoleParams.text(type),
                ConsoleParams.text(tag), ConsoleParams.time("from", from), ConsoleParams.time("to", to),
                text, "oldest".equals(s), ConsoleParams.text(after), ConsoleParams.text(before),
                JobSearchSyntax.parse(text));
    }

    /** The store's filter; a type ending in {@code *} matches by prefix. */
    JobFilter filter() {
        boolean prefix = type != null && type.endsWith("*");
        String t = prefix ? type.substring(0, type.length() - 1) : type;
        return new JobFilter(state, queue, t, prefix, tag, from, to, search.text(), search.args());
    }

    /** The search box's text part (a job id, when it is one), without its args conditions. */
    String text() {
        return search.text();
    }

    String href(String afterCursor, String beforeCursor) {
        return hrefWith(stateName(), afterCursor, beforeCursor);
    }

    /** The first page of the same filter in another state tab ("" for all). */
    String hrefForState(String stateWire) {
        return hrefWith(stateWire, null, null);
    }

    private String hrefWith(String stateWire, String afterCursor, String beforeCursor) {
        return Links.to("/admin/jobs").with("state", stateWire).with("queue", queue).with("type", type)
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

    /** The filter in words, for a confirmation: "every retryable job in queue email whose args have user_id = 42". */
    String describe() {
        StringBuilder sb = new StringBuilder("every ").append(state == null ? "" : state.wire() + " ").append("job");
        if (queue != null) {
            sb.append(" in queue ").append(queue);
        }
        if (type != null) {
            sb.append(" of type ").append(type);
        }
        if (tag != null) {
            sb.append(" tagged ").append(tag);
        }
        if (from != null) {
            sb.append(" created from ").append(Format.time(from)).append(" UTC");
        }
        if (to != null) {
            sb.append(" created before ").append(Format.time(to)).append(" UTC");
        }
        if (search.text() != null) {
            sb.append(" containing \"").append(search.text()).append('"');
        }
        if (!search.args().isEmpty()) {
            sb.append(" whose args have ").append(search.args().stream()
                    .map(a -> String.join(".", a.path()) + " = " + a.json()).collect(Collectors.joining(" and ")));
        }
        return sb.toString();
    }
}
