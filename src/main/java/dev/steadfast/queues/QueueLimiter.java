package dev.steadfast.queues;

import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.limits.ClaimRoute;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.events.Telemetry;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobStore;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * FETCH with queue limits (ojs-rate-limiting.md 7.2). Which queues are limited is remembered per instance and
 * reloaded at most every {@link #REFRESH} (one small query); it only chooses the path: the claim statement for
 * unlimited queues skips every queue whose row says limited, and a limited queue is claimed under its row's lock
 * ({@link QueueLimitStore}), so a stale memory can delay a queue's jobs by up to that interval but never deliver
 * past a limit. Per-key limits (ojs-rate-limiting.md 6) choose the path the same way ({@link RateLimits}: queues
 * holding jobs with a rate limit key), and so do tenants ({@link TenantFairness}). The route of a FETCH is decided
 * once from those three memories by {@link ClaimRoute} (pure: which queues form which leg, and the rules), and its
 * legs run here in the worker's order: the plain statement, the fair claim, each limited queue in its own
 * transaction ({@link QueueLimitStore}), keyed queues through {@link RateLimitStore}. The plain and fair claims pass
 * keyed jobs over; the plain and limited claims leave out the jobs of tenants with a max_concurrency
 * (store.JobSql.NOT_LIMITED_TENANT): those are started by the fair claim, the limited queue's claim of its tenants and
 * the keyed claim, each under the tenants' row locks (ClaimRoute.Known#limitedTenantsIn names them).
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
    private final JobStore jobs;
    private final Telemetry telemetry;

    public QueueLimiter(QueueLimitStore limits, Clock clock, RateLimits keys,
                        RateLimitStore keyedStore, TenantFairness fair, JobStore jobs,
                        Telemetry telemetry) {
        this.telemetry = telemetry;
        this.fair = fair;
        this.jobs = jobs;
        this.keys = keys;
        this.keyedStore = keyedStore;
        this.limits = limits;
        this.clock = clock;
        this.limited = new RefreshedSnapshot<>(REFRESH, () -> limits.limitedQueues().map(Set::copyOf));
    }

    /**
     * Claims up to {@code count} jobs from {@code queues}, earlier queues first, within every queue's limits and
     * every rate limit key's ({@link RateLimits}) and taking turns between tenants where they wait: the route is
     * chosen once from what this instance knows ({@link ClaimRoute}), then its legs run in order. A FETCH whose
     * queues are neither limited nor hold keyed or tenant jobs is the one plain claim statement.
     */
    public Uni<List<JobRow>> claim(List<String> queues, int count, String workerId, Long visibilityMs, Instant now) {
        return limitedQueues(now).flatMap(set -> keys.keyedQueues(now).flatMap(keyed -> fair.known(set, keyed, now)))
                .flatMap(k -> {
                    List<ClaimRoute.Leg> legs = ClaimRoute.plan(queues, k);
                    if (legs.size() == 1 && legs.get(0).way() == ClaimRoute.Way.PLAIN) {
                        return jobs.claim(queues, count, workerId, visibilityMs, now)
                                .map(c -> telemetry.startedBy(c, now));
                    }
                    RateLimitOutcomes out = new RateLimitOutcomes();
                    boolean observed = legs.stream().anyMatch(l -> l.way() == ClaimRoute.Way.KEYED
                            || l.way() == ClaimRoute.Way.LIMITED_QUEUE);
                    return claimLegs(legs, 0, k, count, workerId, visibilityMs, now, new ArrayList<>(), out)
                            .invoke(got -> {
                                if (observed) {
                                    keys.observe(out, now);
                                }
                            });
                });
    }

    /** Runs the legs in order, each asking for what the earlier ones left, until {@code count} jobs are claimed. */
    private Uni<List<JobRow>> claimLegs(List<ClaimRoute.Leg> legs, int i, ClaimRoute.Known k, int count,
                                        String workerId, Long vis, Instant now, List<JobRow> got,
                                        RateLimitOutcomes out) {
        if (i >= legs.size() || got.size() >= count) {
            return Uni.createFrom().item(got);
        }
        int left = count - got.size();
        ClaimRoute.Leg leg = legs.get(i);
        Uni<List<JobRow>> step = switch (leg.way()) {
            case PLAIN -> jobs.claim(leg.queues(), left, workerId, vis, now).map(c -> telemetry.startedBy(c, now));
            case FAIR -> fair.claimFair(leg.queues(), left, workerId, vis, now);
            case KEYED -> keyedStore.claim(leg.queues(), left, workerId, vis, now, out, k.limitedTenantsIn(leg.queues()));
            case LIMITED_QUEUE -> {
                String q = leg.queues().get(0);
                yield limits.claim(q, left, workerId, vis, now, k.keyedQueues().contains(q) ? out : null,
                        k.limitedTenantsIn(leg.queues()));
            }
        };
        return step.flatMap(rows -> {
            got.addAll(rows);
            return claimLegs(legs, i + 1, k, count, workerId, vis, now, got, out);
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
            Set<String> next = new HashSet<>(before);
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
