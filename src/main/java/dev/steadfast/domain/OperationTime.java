package dev.steadfast.domain;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The instant an operation happens at: read once from the injected clock per operation and passed on, at the
 * database's microsecond precision so that what is written compares equal to what is read back.
 */
public final class OperationTime {

    private OperationTime() {
    }

    public static Instant of(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
