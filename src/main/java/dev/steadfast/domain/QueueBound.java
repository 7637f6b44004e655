package dev.steadfast.domain;

/**
 * A queue's depth bound (ojs-backpressure.md, strategy {@code reject}): at most {@code maxDepth} jobs waiting
 * (available, scheduled, pending or retryable); from {@code warningThreshold} x maxDepth on, successful PUSHes report
 * the pressure (depth / bound).
 */
public record QueueBound(int maxDepth, double warningThreshold) {

    /** The threshold when none is configured. */
    public static final double DEFAULT_WARNING = 0.8;

    /** What a PUSH of {@code adding} jobs into a queue holding {@code depth} may do. */
    public sealed interface Decision permits Accept, Reject {
    }

    /** Accepted; {@code pressure} is depth / bound after the PUSH, or null while below the warning threshold. */
    public record Accept(Double pressure) implements Decision {
    }

    /** Refused: the queue would pass its bound. */
    public record Reject(long depth, int bound) implements Decision {
    }

    public Decision admit(long depth, int adding) {
        long after = depth + adding;
        if (after > maxDepth) {
            return new Reject(depth, maxDepth);
        }
        double pressure = (double) after / maxDepth;
        return new Accept(pressure >= warningThreshold ? pressure : null);
    }
}
