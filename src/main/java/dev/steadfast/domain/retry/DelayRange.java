package dev.steadfast.domain.retry;

import java.time.Duration;
import java.util.Objects;

/**
 * Inclusive bounds within which {@link Backoff#delay} falls for one retry, after the
 * {@code max_interval} cap and jitter (OJS retry spec sections 5.2 and 5.3).
 *
 * <p>With jitter, {@code min = 0.5 * capped} and {@code max = min(1.5 * capped, max_interval)},
 * both rounded down to a microsecond. The spec's 1.5x bound is exclusive, but after rounding to a
 * microsecond it can be reached, so {@code max} is reported as inclusive. Without jitter
 * {@code min == max == capped}.
 */
public record DelayRange(Duration min, Duration max) {

    public DelayRange {
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        if (min.isNegative() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("need 0 <= min <= max, got [" + min + ", " + max + "]");
        }
    }

    /** True when {@code d} lies within {@code [min, max]}. */
    public boolean contains(Duration d) {
        return d.compareTo(min) >= 0 && d.compareTo(max) <= 0;
    }
}
