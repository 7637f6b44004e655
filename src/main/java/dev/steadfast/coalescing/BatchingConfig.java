package dev.steadfast.coalescing;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * Concurrent PUSH and ACK requests are gathered into one statement each (see coalescing.Coalescer): an idle
 * server sends each at once, a busy one batches what arrives while earlier batches run.
 */
@ConfigMapping(prefix = "steadfast.batching")
public interface BatchingConfig {

    /** Most requests in one batch. */
    @WithDefault("500")
    @Positive
    int maxBatch();

    /**
     * Batches of one kind running at once (each holds a database connection while it runs). One by default:
     * requests that arrive while a batch runs leave together in the next, so a busy server sends fewer,
     * larger statements (measured with 8 workers acking one job per request: 1,504 jobs/s and half the
     * PostgreSQL CPU with 1, against 1,051 with 4; docs/performance/README.md).
     */
    @WithDefault("1")
    @Positive
    int maxInFlight();

    /**
     * How long a batch may wait for more requests before it leaves (whole milliseconds; a request never waits
     * longer, and a full batch leaves at once). Zero: a free slot sends what waits at once, the natural batching
     * above. Measured with 8 workers acking one job per request, a linger buys fewer commits per job at the price of
     * every ACK's latency (docs/performance/README.md).
     */
    @WithDefault("PT0S")
    @DurationMin(millis = 0)
    Duration linger();

    /**
     * Requests of one kind (PUSH, ACK, FAIL) that may wait for a batch on one instance; one more is refused at
     * once with 503 backend_error ({@code details.reason} server_busy, Retry-After), having done nothing.
     * Four full batches: under the benchmark loads (16 producers, 8 workers) statements averaged 8 requests and
     * the deepest held 127 (docs/performance/README.md), so this only trips when the database has stalled for a while.
     */
    @WithDefault("2000")
    @Positive
    int maxQueued();

    /**
     * On shutdown, after the HTTP requests in flight are done, how long the coalescers may take to write what
     * they still hold (requests whose client went away) before the pool closes.
     */
    @WithDefault("PT10S")
    @DurationMin(millis = 0)
    Duration flushTimeout();
}
