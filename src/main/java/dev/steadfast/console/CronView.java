package dev.steadfast.console;

import dev.steadfast.cron.CronService;
import dev.steadfast.model.CronRow;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The cron page: every schedule with its next and last occurrence and its last run. */
record CronView(List<Line> schedules, long total) {

    /** One schedule as a row, relative to {@code now}, with its expression in words. */
    static Line line(CronRow c, Instant now) {
        String type = field(c.templateJson(), "type");
        String queue = field(c.templateJson(), "queue");
        return new Line(c.name(), c.expression(), c.timezone(), c.overlapPolicy(), !c.enabled(), type,
                queue.isEmpty() ? "default" : queue, Format.time(c.nextFireAt()),
                Format.relative(c.nextFireAt(), now), Format.time(c.lastFireAt()),
                Format.relative(c.lastFireAt(), now), c.lastJobId() == null ? "" : c.lastJobId().toString(),
                c.lastJobState() == null ? "" : c.lastJobState(),
                c.lastOutcome() == null ? "" : c.lastOutcome() + " " + Format.relative(c.lastOutcomeAt(), now),
                c.lastReason() == null ? "" : c.lastReason(), c.runCount(), describe(c.expression()));
    }

    /** The expression in words; a stored expression the describer cannot read is shown as itself. */
    static String describe(String expression) {
        try {
            return CronService.describe(expression);
        } catch (RuntimeException e) {
            return expression;
        }
    }

    /** One schedule; times are UTC text and relative to the page's instant. */
    public record Line(String name, String expression, String timezone, String overlap, boolean paused,
                       String type, String queue, String next, String nextIn, String lastFire, String lastFireAgo,
                       String lastJobId, String lastJobState, String lastOutcome, String lastReason,
                       long runCount, String description) {
    }

    static CronView of(List<CronRow> rows, long total, Instant now) {
        return new CronView(rows.stream().map(c -> line(c, now)).toList(), total);
    }

    /** A string field of the stored template (type, or options.queue), without a JSON library in the view. */
    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"")
                .matcher(json);
        return m.find() ? m.group(1) : "";
    }
}
