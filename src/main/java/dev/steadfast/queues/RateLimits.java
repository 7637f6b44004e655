package dev.steadfast.queues;

import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.events.Telemetry;
import dev.steadfast.store.queues.RateLimitOutcomes;
import dev.steadfast.store.queues.RateLimitStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-key rate limits (ojs-rate-limiting.md 6 and 10.1): records the limits a PUSH names for its key, answers
 * inspection, and tells FETCH which queues hold keyed jobs. That set is remembered per instance and reread at most
 * every {@link #REFRESH}; it only chooses the claim path (a queue outside it is claimed by the statement that passes
 * keyed jobs over), so a stale set can delay another instance's keyed jobs by up to that interval but never deliver
 * one past its key's limits. This instance's own keyed PUSH adds its queue at once.
 */
@ApplicationScoped
public class RateLimits {

    static final Duration REFRESH = Duration.ofSeconds(1);

    /** Keys this instance saw held, with the strategy that held them; bounded (cleared past {@link #MAX_HELD}). */
    private final ConcurrentHashMap<String, String> held = new ConcurrentHashMap<>();
    static final int MAX_HELD = 10_000;

    private final RateLimitStore store;
    private final Clock clock;
    private final RefreshedSnapshot<Set<String>> keyed;
    private final Telemetry telemetry;

    public RateLimits(RateLimitStore store, Clock clock, Telemetry telemetry) {
        this.telemetry = telemetry;
        this.store = store;
        this.clock = clock;
        this.keyed = new RefreshedSnapshot<>(REFRESH, () -> store.keyedQueues().map(Set::copyOf));
    }

    /** Records the policies' limits before their jobs are inserted; for a key named twice, the later one wins. */
    public Uni<Void> record(Collection<RateLimitPolicy> policies) {
        Map<String, RateLimitPolicy> byKey = new LinkedHashMap<>();
        for (RateLimitPolicy p : policies) {
            if (p != null) {
                byKey.remove(p.key());
                byKey.put(p.key(), p);
            }
        }
        return byKey.isEmpty() ? Uni.createFrom().voidItem()
                : store.record(byKey.values(), OperationTime.of(clock));
    }

    /** A keyed job went into {@code queue}: this instance's FETCH takes the keyed path there from now on. */
    public void pushed(String queue) {
        keyed.changed(before -> {
            if (before.contains(queue)) {
                return before;
            }
            Set<String> next = new HashSet<>(before);
            next.add(queue);
            return Set.copyOf(next);
        });
    }

    /** The queues holding keyed jobs, as last loaded. */
    public Uni<Set<String>> keyedQueues(Instant now) {
        return keyed.get(now);
    }

    /** A key's partition now; 404 when no PUSH ever named the key. */
    public Uni<RateLimitStatus> inspect(String key) {
        Instant now = OperationTime.of(clock);
        return store.find(key).map(o -> RateLimitStatus.of(
                o.orElseThrow(() -> OjsException.notFound("rate_limit", key)), now));
    }

    /**
     * The events of one FETCH's keyed claims (ojs-rate-limiting 11.1): {@code rate_limit.exceeded} when a limit
     * holds a key with waiting jobs that this instance had not seen held, {@code rate_limit.released} with the first
     * job such a key starts again. Each instance reports what its own FETCHes see, so a key that several instances
     * find held may be reported by each; a key held while nobody fetches is reported at the next FETCH.
     */
    public void observe(RateLimitOutcomes out, Instant now) {
        for (RateLimitOutcomes.Held h : out.held()) {
            if (held.size() >= MAX_HELD) {
                held.clear();
            }
            if (held.putIfAbsent(h.key(), h.hold().strategy()) == null) {
                telemetry.rateLimitExceeded(h.key(), h.hold().strategy(), h.hold().limit(), h.hold().current(),
                        h.queue(), h.jobType(), now);
            }
        }
        out.started().forEach((key, job) -> {
            String strategy = held.remove(key);
            if (strategy != null) {
                telemetry.rateLimitReleased(key, strategy, job, now);
            }
        });
    }

    /** Forgets what this instance remembers (the reset hook empties the table). */
    public void forget() {
        keyed.forget();
        held.clear();
    }
}
