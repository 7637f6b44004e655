package dev.steadfast.queues;

import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.store.JobRow;
import dev.steadfast.store.queues.QueueLimitStore;
import dev.steadfast.store.queues.RateLimitOutcomes;
import dev.steadfast.store.queues.RateLimitStore;
import dev.steadfast.tenants.TenantFairness;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * FETCH with queue limits (ojs-rate-limiting.md 7.2). Which queues are limited is remembered per instance and
 * reloaded at most every {@link #REFRESH} (one small query); it only chooses the path: the claim statement for
 * unlimited queues skips every queue whose row says limited, and a limited queue is claimed under its row's lock
 * ({@link QueueLimitStore}), so a stale memory can delay a queue's jobs by up to that interval but never deliver
 * past a limit. The queues of one FETCH are taken in the worker's order: consecutive unlimited queues share one
 * claim statement, each limited queue gets its own transaction. Per-key limits (ojs-rate-limiting.md 6) choose the
 * path the same way: queues holding jobs with a rate limit key ({@link RateLimits}) are claimed through
 * {@link RateLimitStore}, every other queue by {@link TenantFairness} (the plain statement, or the fair claim where
 * tenants wait), which passes keyed jobs over. The limited and keyed claims leave out the jobs of tenants with a
 * max_concurrency (store.JobSql.NOT_LIMITED_TENANT): those are started only by the fair claim.
 */
@ApplicationScoped
public class QueueLimiter {

    static final Duration REFRESH = Duration.ofSeconds(1);

    private final QueueLimitStore limits;
    private final Clock clock;
    private final RefreshedSnapshot<Set<String>> limited;
    private final RateLimits keys;
    private final RateLimitStore keyedStore;

    private final TenantFairness fair;

    public QueueLimiter(QueueLimitStore limits, Clock clock, RateLimits keys,
                        RateLimitStore keyedStore, TenantFairness fair) {
        this.fair = fair;
        this.keys = keys;
        this.keyedStore = keyedStore;
        this.limits = limits;
        this.clock = clock;
        this.limited = new RefreshedSnapshot<>(REFRESH, () -> limits.limitedQueues().map(Set::copyOf));
    }

    /**
     * Claims up to {@code count} jobs from {@code queues}, earlier queues first, within every queue's limits and
     * every rate limit key's ({@link RateLimits}): a FETCH whose queues are neither limited nor hold keyed jobs is
     * the one plain claim statement, as before either existed, unless one of them holds tenant jobs: then
     * {@link TenantFairness} takes turns between the tenants. Queues that are limited or hold keyed jobs keep
     * their own claims, which do not take turns between tenants.
     */
    public Uni<List<JobRow>> claim(List<String> queues, int count, String workerId, Long visibilityMs, Instant now) {
        return limitedQueues(now).flatMap(set -> keys.keyedQueues(now).flatMap(keyed -> {
            if (queues.stream().noneMatch(q -> set.contains(q) || keyed.contains(q))) {
                return fair.claim(queues, count, workerId, visibilityMs, now);
            }
            RateLimitOutcomes out = new RateLimitOutcomes();
            return claimInOrder(queues, 0, set, keyed, count, workerId, visibilityMs, now, new ArrayList<>(), out)
                    .invoke(jobs -> keys.observe(out, now));
        }));
    }

    /**
     * Takes the queues in the worker's order: a run of consecutive plain queues shares one claim ({@link
     * TenantFairness}: fair between tenants, and the only claim that starts a limited tenant's jobs), so does
     * a run of queues holding keyed jobs (RateLimitStore's transaction), and each limited queue gets its own.
     */
    private Uni<List<JobRow>> claimInOrder(List<String> queues, int from, Set<String> set, Set<String> keyed,
                                           int count, String workerId, Long vis, Instant now, List<JobRow> got,
                                           RateLimitOutcomes out) {
        if (from >= queues.size() || got.size() >= count) {
            return Uni.createFrom().item(got);
        }
        int left = count - got.size();
        String first = queues.get(from);
        Uni<List<JobRow>> step;
        int next;
        if (set.contains(first)) {
            next = from + 1;
            step = fair.limitedIn(first, now).flatMap(tenants -> limits.claim(first, left, workerId, vis, now,
                    keyed.contains(first) ? out : null, tenants));
        } else {
            boolean k = keyed.contains(first);
            int to = from;
            while (to < queues.size() && !set.contains(queues.get(to)) && keyed.contains(queues.get(to)) == k) {
                to++;
            }
            next = to;
            step = k ? keyedStore.claim(queues.subList(from, to), left, workerId, vis, now, out)
                    : fair.claim(queues.subList(from, to), left, workerId, vis, now);
        }
        return step.flatMap(rows -> {
            got.addAll(rows);
            return claimInOrder(queues, next, set, keyed, count, workerId, vis, now, got, out);
        });
    }

    /** The limited queues as last loaded ({@link RefreshedSnapshot}: one FETCH per interval rereads them). */
    private Uni<Set<String>> limitedQueues(Instant now) {
        return limited.get(now);
    }

    /** Sets a queue's limits (all null: clears them); takes effect on this instance at once. */
    public Uni<QueueLimits> set(String queue, QueueLimits l) {
        JobRules.checkQueue(queue);
        Instant now = OperationTime.of(clock);
        return limits.set(queue, l, now).invoke(set -> limited.changed(before -> {
            java.util.Set<String> next = new java.util.HashSet<>(before);
            if (set.limited()) {
                next.add(queue);
            } else {
                next.remove(queue);
            }
            return Set.copyOf(next);
        }));
    }

    /** A queue's limits; 404 when the server has no row for it. */
    public Uni<QueueLimits> get(String queue) {
        JobRules.checkQueue(queue);
        return limits.find(queue).map(o -> o.orElseThrow(() -> OjsException.notFound("queue", queue)));
    }

    /** Forgets what this instance remembers (the reset hook empties the table). */
    public void forget() {
        limited.forget();
        fair.forget();
        keys.forget();
    }
}
