package dev.steadfast.coalescing;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Makes the server's {@link Coalescer}s (PUSH inserts, ACKs, FAIL reads and writes) with the
 * {@code steadfast.batching.*} settings, shows each on /q/metrics (tag {@code coalescer}), and flushes them all
 * when the application stops:
 * <ul>
 *   <li>{@code steadfast_coalescer_queued}: requests waiting for a batch now (bounded by
 *       {@code steadfast.batching.max-queued});</li>
 *   <li>{@code steadfast_coalescer_refused_total}: requests refused because that many already waited;</li>
 *   <li>{@code steadfast_coalescer_batch_size}: requests per statement (its max shows how deep the queue got).</li>
 * </ul>
 *
 * <p>Shutdown: Quarkus first waits up to {@code quarkus.shutdown.timeout} for HTTP requests in flight, whose
 * coalesced writes they wait for. A write whose request is gone (the client disconnected, or that timeout ran out)
 * is still in its coalescer: on {@link ShutdownEvent}, which Quarkus fires before the pool closes, this waits up
 * to {@code steadfast.batching.flush-timeout} until every accepted request has been written and answered.
 */
@ApplicationScoped
public class Coalescers {

    private static final Logger LOG = Logger.getLogger(Coalescers.class);

    private final BatchingConfig config;
    private final MeterRegistry meters;
    private final List<Coalescer<?, ?>> all = new CopyOnWriteArrayList<>();

    private final Vertx vertx;

    public Coalescers(BatchingConfig config, MeterRegistry meters, Vertx vertx) {
        this.config = config;
        this.meters = meters;
        this.vertx = vertx;
    }

    /** A bounded coalescer named {@code name} in its metrics and refusals. */
    public <I, O> Coalescer<I, O> create(String name, Function<List<I>, Uni<List<O>>> batch) {
        Coalescer<I, O> c = new Coalescer<>(name, batch, config.maxBatch(), config.maxInFlight(), config.maxQueued());
        if (!config.linger().isZero()) {
            c.linger(config.linger(), (ms, task) -> vertx.setTimer(ms, id -> task.run()), System::nanoTime);
        }
        Gauge.builder("steadfast.coalescer.queued", c, Coalescer::queued).tag("coalescer", name).strongReference(true)
                .description("Requests waiting for a batch statement").register(meters);
        FunctionCounter.builder("steadfast.coalescer.refused", c, Coalescer::refused).tag("coalescer", name)
                .description("Requests refused with 503 because steadfast.batching.max-queued already waited")
                .register(meters);
        DistributionSummary sizes = DistributionSummary.builder("steadfast.coalescer.batch.size")
                .tag("coalescer", name).description("Requests per batch statement").register(meters);
        c.onBatch(sizes::record);
        all.add(c);
        return c;
    }

    void onStop(@Observes ShutdownEvent e) {
        flush(config.flushTimeout());
    }

    /**
     * Waits until every coalescer has answered all it accepted, at most {@code max} in all; true when done. Passes
     * over them until one pass finds all idle: a FAIL's read, once answered, may still queue its write.
     */
    public boolean flush(Duration max) {
        long end = System.nanoTime() + max.toNanos();
        all.forEach(Coalescer::stopLingering);
        try {
            boolean waited = true;
            while (waited) {
                waited = false;
                for (Coalescer<?, ?> c : all) {
                    if (c.idle()) {
                        continue;
                    }
                    waited = true;
                    if (!c.awaitIdle(Duration.ofNanos(Math.max(0, end - System.nanoTime())))) {
                        LOG.warnf("shutting down with %d coalesced requests still waiting after %s", c.queued(), max);
                        return false;
                    }
                }
            }
            return true;
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
