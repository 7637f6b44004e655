package dev.steadfast.console;

import dev.steadfast.stats.StatsService;
import dev.steadfast.stats.QueueStats;
import java.time.Instant;
import java.util.List;

/** The queues page: every queue's depth by state, its lag, its last hour and its pause switch. */
record QueuesView(String at, List<Row> queues, List<String> headers, String activityUntil) {

    /** A queue's row and its last hour per minute. */
    public record Row(QueueLine q, QueueView.Activity activity) {
    }

    static QueuesView of(List<QueueStats> queues, StatsService.Activity activity, Instant now) {
        return new QueuesView(Format.time(now) + " UTC", queues.stream().map(q -> new Row(QueueLine.of(q, now),
                QueueView.Activity.of(activity.byQueue().get(q.name())))).toList(), QueueLine.headers(),
                QueueView.until(activity.through()));
    }
}
