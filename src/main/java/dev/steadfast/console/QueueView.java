package dev.steadfast.console;

import dev.steadfast.console.errors.Sparkline;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.stats.QueueActivity;
import dev.steadfast.stats.QueueStats;
import dev.steadfast.stats.StatsService;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;

/**
 * One queue's page: its depth by state, its limits (as a form, with the message of a refused change), and the
 * last hour's throughput and latency per minute.
 */
record QueueView(QueueLine queue, List<String> headers, QueueLimitsForm limits, String limitsSummary,
                        String error, Activity activity, String activityUntil) {

    /** The minute the sparklines end at, in words. */
    static String until(Instant through) {
        return through == null ? "not rolled up yet"
                : "up to " + Format.minute(through) + " UTC";
    }

    /** The last hour per minute as two sparklines, and their totals in words. */
    public record Activity(Sparkline throughput, Sparkline latency, String finished, String meanWait) {

        static Activity of(QueueActivity a) {
            List<Long> finished = a == null ? Collections.nCopies(StatsService.WINDOW_MINUTES, 0L) : a.finished();
            List<Long> wait = a == null ? Collections.nCopies(StatsService.WINDOW_MINUTES, 0L) : a.meanWaitMs();
            long total = finished.stream().mapToLong(Long::longValue).sum();
            long peak = finished.stream().mapToLong(Long::longValue).max().orElse(0);
            long weighted = 0;
            for (int i = 0; i < finished.size(); i++) {
                weighted += finished.get(i) * wait.get(i);
            }
            long maxWait = wait.stream().mapToLong(Long::longValue).max().orElse(0);
            String mean = total == 0 ? "—" : Format.duration(Duration.ofMillis(weighted / total));
            return new Activity(
                    Sparkline.bars(finished, Format.count(total) + " jobs finished in the last hour, at most "
                            + Format.count(peak) + " in one minute", "throughput"),
                    Sparkline.bars(wait, "mean wait before start per minute over the last hour, at most "
                            + Format.duration(Duration.ofMillis(maxWait)), "latency"),
                    Format.count(total), mean);
        }
    }

    static QueueView of(QueueStats q, QueueLimitsForm form, String summary, String error, QueueActivity a,
                        Instant through, Instant now) {
        return new QueueView(QueueLine.of(q, now), QueueLine.headers(), form, summary, error, Activity.of(a),
                until(through));
    }

    /** The limits in force in words. */
    static String summary(QueueLimits l) {
        if (!l.limited()) {
            return "No limits: workers get as many jobs as they ask for.";
        }
        String c = l.concurrency() == null ? "no concurrency limit" : "at most " + l.concurrency() + " active at once";
        String r = l.rateLimit() == null ? "no rate limit" : "at most " + l.rateLimit() + " starts per "
                + Format.duration(l.ratePeriod()) + " (sliding window)";
        return c + "; " + r + ".";
    }
}
