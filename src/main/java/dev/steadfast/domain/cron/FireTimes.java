package dev.steadfast.domain.cron;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A schedule's occurrences: the first one strictly after an instant. Implemented outside the domain over a cron
 * library (cron.CronExpressions), so the decisions here stay pure and can be tested with a hand-written
 * schedule and a fixed clock.
 */
@FunctionalInterface
public interface FireTimes {

    /** The first occurrence strictly after {@code after}, or empty when the schedule never fires again. */
    Optional<Instant> nextAfter(Instant after);

    /**
     * The next {@code count} occurrences strictly after {@code after}, earliest first: fewer when the schedule
     * stops firing (what the console shows as a schedule's next runs).
     */
    default List<Instant> next(Instant after, int count) {
        List<Instant> out = new ArrayList<>(count);
        Instant from = after;
        while (out.size() < count) {
            Optional<Instant> n = nextAfter(from);
            if (n.isEmpty()) {
                break;
            }
            out.add(n.get());
            from = n.get();
        }
        return out;
    }
}
