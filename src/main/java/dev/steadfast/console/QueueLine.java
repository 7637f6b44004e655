package dev.steadfast.console;

import dev.steadfast.domain.JobState;
import dev.steadfast.stats.QueueStats;
import dev.steadfast.stats.StatsService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One queue as a table row: a cell per state (linking to the jobs in that state), dead letters, lag (the age of
 * its oldest available job; "warn" past a minute, "bad" past ten) and the pause switch.
 */
record QueueLine(String name, boolean paused, String pausedAt, List<Cell> cells, String deadLetters,
                        String deadLetterHref, String lag, String lagTone, String total) {

    /** The states in the order the console's tables show them. */
    public static final List<JobState> STATES = List.of(JobState.AVAILABLE, JobState.SCHEDULED, JobState.PENDING,
            JobState.ACTIVE, JobState.RETRYABLE, JobState.COMPLETED, JobState.CANCELLED, JobState.DISCARDED);

    /** A count that links to the jobs it counts. */
    public record Cell(String count, String href, boolean zero) {
    }

    static QueueLine of(QueueStats q, Instant now) {
        List<Cell> cells = new ArrayList<>(STATES.size());
        for (JobState s : STATES) {
            long n = q.count(s);
            cells.add(new Cell(Format.count(n), Links.to("/admin/jobs").with("queue", q.name()).with("state", s.wire())
                    .toString(), n == 0));
        }
        Duration lag = StatsService.lag(q, now);
        String tone = lag == null ? "" : lag.toMinutes() >= 10 ? "bad" : lag.toMinutes() >= 1 ? "warn" : "";
        return new QueueLine(q.name(), q.paused(), Format.time(q.pausedAt()), cells, Format.count(q.deadLetters()),
                Links.to("/admin/dead-letter").with("queue", q.name()).toString(),
                lag == null ? "—" : Format.duration(lag), tone, Format.count(q.total()));
    }

    /** The header labels matching {@link #cells}. */
    public static List<String> headers() {
        return STATES.stream().map(JobState::wire).toList();
    }
}
