package dev.steadfast.console;

import dev.steadfast.model.WorkerRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The workers page: every worker heard from recently, whether it is stale, and what it was told to do. */
record WorkersView(List<Line> workers, String staleAfter) {

    /** One worker. */
    public record Line(String id, String hostname, String state, boolean stale, String queues, long activeJobs,
                       String lastSeen, String lastSeenAgo, String firstSeen) {
    }

    static WorkersView of(List<WorkerRow> rows, Duration staleAfter, Instant now) {
        Instant cut = now.minus(staleAfter);
        return new WorkersView(rows.stream().map(w -> {
            boolean stale = w.lastSeen().isBefore(cut);
            return new Line(w.id(), w.hostname() == null ? "" : w.hostname(), stale ? "stale" : w.directive(), stale,
                    String.join(", ", w.queues()), w.activeJobs(), Format.time(w.lastSeen()),
                    Format.relative(w.lastSeen(), now), Format.time(w.firstSeen()));
        }).toList(), Format.duration(staleAfter));
    }
}
