package dev.steadfast.console;

import dev.steadfast.model.CronRow;
import dev.steadfast.store.cron.CronStore;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * One cron schedule's page: its expression in words, the next occurrences (from the server's own schedule rules,
 * {@link dev.steadfast.domain.cron.FireTimes#next}), and its latest occurrences with their jobs' states now.
 */
record CronScheduleView(CronView.Line schedule, String description, String template, List<Next> next,
                               List<Run> runs) {

    /** An upcoming occurrence in UTC and in the schedule's zone, and how soon. */
    public record Next(String utc, String local, String in) {
    }

    /** A recorded occurrence: enqueued (with its job) or skipped (with the reason). */
    public record Run(String at, String ago, String outcome, String jobId, String jobState, String reason) {
    }

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("EEE yyyy-MM-dd HH:mm zzz");

    static CronScheduleView of(CronRow c, String description, String template, List<Instant> next,
                               List<CronStore.Run> runs, Instant now) {
        ZoneId zone = ZoneId.of(c.timezone());
        return new CronScheduleView(CronView.line(c, now), description, template,
                next.stream().map(i -> new Next(Format.time(i), LOCAL.format(i.atZone(zone)),
                        Format.relative(i, now))).toList(),
                runs.stream().map(r -> new Run(Format.time(r.fireAt()), Format.relative(r.fireAt(), now),
                        r.held() ? "held" : r.outcome(), r.jobId() == null ? "" : r.jobId().toString(),
                        r.jobId() == null ? "" : r.jobState() == null ? "pruned" : r.jobState(),
                        r.reason() == null ? "" : r.reason())).toList());
    }
}
