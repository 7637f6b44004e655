package dev.steadfast.domain.cron;

import java.time.Instant;
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
}
