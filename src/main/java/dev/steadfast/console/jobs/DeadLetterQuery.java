package dev.steadfast.console.jobs;

import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.Format;
import dev.steadfast.console.Links;
import dev.steadfast.store.deadletters.DeadLetterFilter;
import java.time.Instant;

/** The dead-letter page's filter (queue, job type, error type, dead-lettered between) and cursor, parsed. */
record DeadLetterQuery(String queue, String type, String errorType, Instant since, Instant until, String after) {

    static DeadLetterQuery parse(String queue, String type, String errorType, String since, String until,
                                 String after) {
        return new DeadLetterQuery(ConsoleParams.queue(queue), ConsoleParams.text(type), ConsoleParams.text(errorType),
                ConsoleParams.time("since", since), ConsoleParams.time("until", until), ConsoleParams.text(after));
    }

    DeadLetterFilter filter() {
        return new DeadLetterFilter(queue, type, errorType, since, until);
    }

    String href(String afterCursor) {
        return Links.to("/admin/dead-letter").with("queue", queue).with("type", type).with("error_type", errorType)
                .with("since", Format.input(since)).with("until", Format.input(until)).with("after", afterCursor)
                .toString();
    }

    public String sinceInput() {
        return Format.input(since);
    }

    public String untilInput() {
        return Format.input(until);
    }

    public boolean filtered() {
        return queue != null || type != null || errorType != null || since != null || until != null;
    }

    /** Describes the filter in words for the confirmation page. */
    String describe() {
        if (!filtered()) {
            return "every dead letter";
        }
        StringBuilder sb = new StringBuilder("every dead letter");
        if (queue != null) {
            sb.append(" in queue ").append(queue);
        }
        if (type != null) {
            sb.append(" of type ").append(type);
        }
        if (errorType != null) {
            sb.append(" whose last error is ").append(errorType);
        }
        if (since != null) {
            sb.append(" dead-lettered from ").append(Format.time(since)).append(" UTC");
        }
        if (until != null) {
            sb.append(" before ").append(Format.time(until)).append(" UTC");
        }
        return sb.toString();
    }
}
