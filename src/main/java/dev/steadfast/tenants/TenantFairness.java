package dev.steadfast.tenants;

import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.store.JobRow;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.tenants.TenantStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the claim for a FETCH over plain queues (neither limited nor holding rate-limit-keyed jobs): the fair
 * claim (store.tenants.TenantClaimSql.CLAIM_FAIR) when one of the queues holds claimable tenant jobs and
 * steadfast.tenants.fair-claim is on, else JobStore's plain claim, so a deployment without tenants runs the very
 * statement it ran before. Which queues hold tenant jobs is remembered per instance and reread at most every
 * {@link #REFRESH} (one probe per queue); a PUSH of a tenant job on this instance marks its queue at once. A stale
 * memory on another instance only means up to {@link #REFRESH} of the plain order there, never a lost job.
 *
 * <p>The round-robin cursor (the tenant each queue served last) lives in this instance's memory: a FETCH starts with
 * the tenants after it. Several instances each keep their own, so each takes turns on its own; no write is added
 * to the claim for it. Bounded: at most {@link #MAX_CURSORS} queues are remembered, then the memory starts over.
 */
@ApplicationScoped
public class TenantFairness {

    static final Duration REFRESH = Duration.ofSeconds(1);
    static final int MAX_CURSORS = 10_000;

    private final TenantStore store;
    private final JobStore jobs;
    private final TenantsConfig config;
    private final RefreshedSnapshot<Set<String>> tenantQueues;
    private volatile Set<String> known = Set.of();
    private final Map<String, String> cursors = new ConcurrentHashMap<>();

    public TenantFairness(TenantStore store, JobStore jobs, TenantsConfig config) {
        this.store = store;
        this.jobs = jobs;
        this.config = config;
        this.tenantQueues = new RefreshedSnapshot<>(REFRESH, () -> store.tenantQueues().invoke(s -> known = s));
    }

    /** Claims from plain queues: fair between tenants where a queue holds tenant jobs, else the plain claim. */
    public Uni<List<JobRow>> claim(List<String> queues, int count, String workerId, Long visibilityMs, Instant now) {
        if (!config.fairClaim()) {
            return jobs.claim(queues, count, workerId, visibilityMs, now);
        }
        return tenantQueues.get(now).flatMap(tq -> {
            if (queues.stream().noneMatch(tq::contains)) {
                return jobs.claim(queues, count, workerId, visibilityMs, now);
            }
            return store.claimFair(queues, cursors, count, workerId, visibilityMs, now).map(c -> {
                if (cursors.size() > MAX_CURSORS) {
                    cursors.clear();
                }
                cursors.putAll(c.lastServed());
                return c.jobs();
            });
        });
    }

    /** FETCH by a worker that named its tenant: only that tenant's jobs (ojs-multi-tenancy 6.2). */
    public Uni<List<JobRow>> claimOf(String tenant, List<String> queues, int count, String workerId,
                                     Long visibilityMs, Instant now) {
        return store.claimOfTenant(queues, tenant, count, workerId, visibilityMs, now);
    }

    /** A tenant job went into {@code queue}: this instance's FETCH takes the fair claim there from now on. */
    public void pushed(String queue) {
        if (known.contains(queue)) {
            return;
        }
        tenantQueues.changed(before -> {
            Set<String> next = new HashSet<>(before);
            next.add(queue);
            return Set.copyOf(next);
        });
        Set<String> k = new HashSet<>(known);
        k.add(queue);
        known = Set.copyOf(k);
    }

    /** Forgets what this instance remembers (the reset hook empties the tables). */
    public void forget() {
        tenantQueues.forget();
        known = Set.of();
        cursors.clear();
    }
}
