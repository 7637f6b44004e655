package dev.steadfast.console;

import dev.steadfast.domain.JobState;
import dev.steadfast.stats.Overview;
import dev.steadfast.stats.StatsService;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The overview page: headline numbers, the last hour's finished jobs per minute, and every queue's depth. */
record OverviewView(String at, List<Card> cards, ThroughputChart chart, List<QueueLine> queues,
                           List<String> headers) {

    /** A headline number; {@code tone} is "", "warn" or "bad". */
    public record Card(String label, String value, String note, String href, String tone) {
    }

    static OverviewView of(Overview o) {
        Instant now = o.at();
        List<QueueLine> lines = o.queues().stream().map(q -> QueueLine.of(q, now)).toList();
        long available = sum(o, JobState.AVAILABLE), active = sum(o, JobState.ACTIVE);
        long retryable = sum(o, JobState.RETRYABLE), scheduled = sum(o, JobState.SCHEDULED);
        Duration maxLag = o.queues().stream().map(q -> StatsService.lag(q, now)).filter(Objects::nonNull)
                .max(Duration::compareTo).orElse(null);
        List<Card> cards = new ArrayList<>();
        cards.add(new Card("Available", Format.count(available), "waiting to be fetched",
                "/admin/jobs?state=available", ""));
        cards.add(new Card("Active", Format.count(active), "leased to workers", "/admin/jobs?state=active", ""));
        cards.add(new Card("Retryable", Format.count(retryable), Format.count(scheduled) + " scheduled",
                "/admin/jobs?state=retryable", retryable > 0 ? "warn" : ""));
        cards.add(new Card("Dead letters", Format.count(o.deadLetters()), "need an operator", "/admin/dead-letter",
                o.deadLetters() > 0 ? "bad" : ""));
        cards.add(new Card("Completed", Format.count(o.completedInWindow()), "last hour", null, ""));
        cards.add(new Card("Failure rate", Format.percent(o.failureRate()),
                Format.count(o.failedInWindow()) + " failed for good, last hour", null,
                o.failureRate() >= 0.05 ? "bad" : o.failureRate() > 0 ? "warn" : ""));
        cards.add(new Card("Oldest waiting", maxLag == null ? "—" : Format.duration(maxLag), "max lag over queues",
                null, maxLag != null && maxLag.toMinutes() >= 10 ? "bad" : maxLag != null && maxLag.toMinutes() >= 1
                ? "warn" : ""));
        String at = Format.time(now) + " UTC" + (Duration.between(o.countedAt(), now).getSeconds() >= 1
                ? " (counts as of " + Format.time(o.countedAt()).substring(11) + ")" : "");
        return new OverviewView(at, cards, ThroughputChart.of(o.minutes()), lines,
                QueueLine.headers());
    }

    private static long sum(Overview o, JobState s) {
        return o.queues().stream().mapToLong(q -> q.count(s)).sum();
    }

    /** True before the first job was ever enqueued. */
    public boolean empty() {
        return queues.isEmpty();
    }
}
