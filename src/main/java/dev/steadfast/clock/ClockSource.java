package dev.steadfast.clock;

/** Which clock the server reads (steadfast.clock.source): spelled {@code database} or {@code system}. */
public enum ClockSource {
    /** The machine's clock corrected by its offset to PostgreSQL's {@code clock_timestamp()}. */
    DATABASE,
    /** The machine's clock as it is. */
    SYSTEM
}
