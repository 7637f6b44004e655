package dev.steadfast.domain;

import java.time.Duration;

/**
 * Fairness between producers and workers on one server: while workers are busy (a worker request arrived within
 * {@code workerWindow}), at most {@code slots} producer requests are processed at once; without worker requests
 * producers are not limited. Each client's requests get about an equal share of a saturated server, so 50
 * producers beside 8 workers would otherwise take about six requests in seven, and the queue grows while the
 * workers starve; with the limit, the workers' requests get at least as many turns as the producers'.
 * Time is an input (a monotonic nanosecond reading), so the rule is tested without waiting.
 */
public record ProducerSlots(int slots, Duration workerWindow) {

    public boolean enabled() {
        return slots > 0;
    }

    /**
     * May one more producer request start now? {@code lastWorkerNanos} is when the last worker request arrived
     * ({@link Long#MIN_VALUE} when none did).
     */
    public boolean admit(int producersInFlight, long lastWorkerNanos, long nowNanos) {
        return !enabled() || producersInFlight < slots || !workersBusy(lastWorkerNanos, nowNanos);
    }

    public boolean workersBusy(long lastWorkerNanos, long nowNanos) {
        return lastWorkerNanos != Long.MIN_VALUE && nowNanos - lastWorkerNanos < workerWindow.toNanos();
    }
}
