package dev.steadfast.console;

import dev.steadfast.stats.QueueStats;
import java.time.Instant;
import java.util.List;

/** The queues page: every queue's depth by state, its lag and its pause switch. */
public record QueuesView(String at, List<QueueLine> queues, List<String> headers) {

    static QueuesView of(List<QueueStats> queues, Instant now) {
        return new QueuesView(Format.time(now) + " UTC", queues.stream().map(q -> QueueLine.of(q, now)).toList(),
                QueueLine.headers());
    }
}
