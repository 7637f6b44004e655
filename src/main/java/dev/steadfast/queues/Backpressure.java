package dev.steadfast.queues;

import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.QueueBound;
import dev.steadfast.store.queues.BackpressureStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Queue depth bounds (ojs-backpressure.md, strategy {@code reject}). A PUSH into a bounded queue counts the queue's
 * waiting jobs and is refused with {@code 429 QUEUE_FULL} when it would pass the bound; a PUSH into any other queue
 * costs nothing but a map lookup. Which queues are bounded is read at most once per {@link #FRESH} per instance, by
 * one PUSH while the others use what was read before ({@link RefreshedSnapshot}), and at once on this instance after
 * a change, so a bound set through another instance applies here within a second.
 *
 * <p>The count and the insert are separate statements: PUSHes racing on one bounded queue can pass the bound by
 * the number that were counted at the same moment (at most one coalesced batch per instance). The bound is a
 * brake for producers, not an exact capacity.
 */
@ApplicationScoped
public class Backpressure {

    static final Duration FRESH = Duration.ofSeconds(1);
    /** Suggested wait in the 429's Retry-After, in seconds. */
    public static final int RETRY_AFTER_SECONDS = 1;

    private final BackpressureStore store;
    private final Clock clock;
    private final RefreshedSnapshot<Map<String, QueueBound>> bounds;

    public Backpressure(BackpressureStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
        this.bounds = new RefreshedSnapshot<>(FRESH, () -> store.bounded().map(Map::copyOf));
    }

    private Uni<Map<String, QueueBound>> bounds() {
        return bounds.get(clock.instant());
    }

    /**
     * Admits {@code adding} jobs per queue (null queue: the default one), all or none: the highest pressure among
     * the bounded queues once they are in (null when every one is below its warning threshold); 429 QUEUE_FULL
     * naming the first queue that would pass its bound.
     */
    public Uni<Double> admit(Map<String, Integer> adding) {
        return bounds().flatMap(b -> {
            Uni<Double> out = Uni.createFrom().nullItem();
            for (Map.Entry<String, Integer> e : adding.entrySet()) {
                String queue = e.getKey() == null ? JobRules.DEFAULT_QUEUE : e.getKey();
                QueueBound bound = b.get(queue);
                if (bound == null) {
                    continue;
                }
                out = out.flatMap(worst -> store.depth(queue).map(depth -> {
                    QueueBound.Decision d = bound.admit(depth, e.getValue());
                    if (d instanceof QueueBound.Reject r) {
                        throw full(queue, r);
                    }
                    Double p = ((QueueBound.Accept) d).pressure();
                    if (worst == null) {
                        return p;
                    }
                    return p == null ? worst : Double.valueOf(Math.max(worst, p));
                }));
            }
            return out;
        });
    }

    /** {@link #admit} for the jobs of one request, given by their queues (null: the default one). */
    public Uni<Double> admitAll(Iterable<String> queues) {
        Map<String, Integer> n = new HashMap<>();
        for (String q : queues) {
            n.merge(q == null ? JobRules.DEFAULT_QUEUE : q, 1, Integer::sum);
        }
        return admit(n);
    }

    private static OjsException full(String queue, QueueBound.Reject r) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("queue", queue);
        d.put("depth", r.depth());
        d.put("bound", r.bound());
        d.put("retry_after_seconds", RETRY_AFTER_SECONDS);
        return new OjsException(ErrorCode.QUEUE_FULL, "Queue '" + queue + "' holds " + r.depth()
                + " waiting jobs, its bound is " + r.bound() + "; retry later.", d);
    }

    /** Bounds {@code queue} (null: no bound); applies on this instance at once. */
    public Uni<Void> configure(String queue, QueueBound bound) {
        return store.set(queue, bound, clock.instant()).invoke(() -> bounds.changed(b -> {
            Map<String, QueueBound> next = new HashMap<>(b);
            if (bound == null) {
                next.remove(queue);
            } else {
                next.put(queue, bound);
            }
            return Map.copyOf(next);
        }));
    }

    /** Forgets what this instance remembers (the reset hook empties the table). */
    public void forget() {
        bounds.forget();
    }

    public Uni<Optional<QueueBound>> bound(String queue) {
        return bounds().map(b -> Optional.ofNullable(b.get(queue)));
    }

    /** The waiting jobs of {@code queue}, counted now. */
    public Uni<Long> depth(String queue) {
        return store.depth(queue);
    }
}
