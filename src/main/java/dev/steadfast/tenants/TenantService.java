package dev.steadfast.tenants;

import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.TenantId;
import dev.steadfast.domain.limits.TenantConcurrency;
import dev.steadfast.store.tenants.TenantStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tenants as an operator sees them (ojs-multi-tenancy.md 8 and 10): their statistics, their configuration (fairness
 * weight, max_queue_depth, max_concurrency: enforced at FETCH, see {@link TenantFairness}), and the depth check a
 * PUSH of tenant jobs passes first. Which tenants have a depth limit is remembered per instance and reread at most
 * once a second, so only their PUSHes pay the count (one probe of jobs_tenant_state_idx); the check and the insert
 * are not one transaction, so concurrent PUSHes may pass the limit by the jobs they carry, as the queue depth bound
 * may (docs/concepts/tenants.md).
 */
@ApplicationScoped
public class TenantService {

    static final Duration REFRESH = Duration.ofSeconds(1);
    static final int MAX_WEIGHT = 1000;

    private final TenantStore store;
    private final TenantFairness fairness;
    private final Clock clock;
    private final RefreshedSnapshot<Map<String, Integer>> depthLimits;

    public TenantService(TenantStore store, TenantFairness fairness, Clock clock) {
        this.store = store;
        this.fairness = fairness;
        this.clock = clock;
        this.depthLimits = new RefreshedSnapshot<>(REFRESH, store::depthLimits);
    }

    /** A tenant's counts: live jobs by state, finished ones kept, and those of the last 24 hours. */
    public record Stats(String tenant, TenantStore.Counts all, TenantStore.Counts day, Optional<TenantStore.Config> config) {
    }

    public Uni<Stats> stats(String tenant) {
        TenantId.check("tenant_id", tenant);
        Instant now = OperationTime.of(clock);
        return store.counts(tenant, null, null).flatMap(all -> store.counts(tenant, null, now.minus(Duration.ofHours(24)))
                .flatMap(day -> store.find(tenant).map(c -> new Stats(tenant, all, day, c))));
    }

    /** A tenant's jobs of one queue by state (live and kept finished ones). */
    public Uni<TenantStore.Counts> queueCounts(String tenant, String queue) {
        return store.counts(TenantId.check(TenantId.HEADER, tenant), JobRules.checkQueue(queue), null);
    }

    public Uni<Map<String, Map<String, Long>>> list() {
        return store.list();
    }

    public Uni<Optional<TenantStore.Config>> find(String tenant) {
        return store.find(TenantId.check("tenant_id", tenant));
    }

    public Uni<TenantStore.Config> get(String tenant) {
        TenantId.check("tenant_id", tenant);
        return store.find(tenant).map(o -> o.orElseThrow(() -> OjsException.notFound("tenant", tenant)));
    }

    /**
     * Creates or replaces a tenant's configuration; weight 1 to {@link #MAX_WEIGHT}, depth limit 0 or more,
     * concurrency limit 1 or more ({@link TenantConcurrency}); null: the default (weight 1, no limit). A bad value
     * is refused before anything is written.
     */
    public Uni<TenantStore.Config> configure(String tenant, Long weight, Long maxQueueDepth, Long maxConcurrency) {
        TenantId.check("tenant_id", tenant);
        if (weight != null && (weight < 1 || weight > MAX_WEIGHT)) {
            throw OjsException.invalidField("fairness_weight", "'fairness_weight' must be an integer from 1 to "
                    + MAX_WEIGHT + ".", "1 to " + MAX_WEIGHT, weight.toString());
        }
        if (maxQueueDepth != null && (maxQueueDepth < 0 || maxQueueDepth > Integer.MAX_VALUE)) {
            throw OjsException.invalidField("limits.max_queue_depth", "'max_queue_depth' must be an integer from 0"
                    + " to " + Integer.MAX_VALUE + ".", "0 to " + Integer.MAX_VALUE, maxQueueDepth.toString());
        }
        if (!TenantConcurrency.valid(maxConcurrency)) {
            throw OjsException.invalidField("limits.max_concurrency", "'max_concurrency' must be an integer from 1"
                    + " to " + TenantConcurrency.MAX + ", or null for no limit.", "1 to " + TenantConcurrency.MAX,
                    maxConcurrency.toString());
        }
        return store.save(tenant, weight == null ? 1 : weight.intValue(),
                maxQueueDepth == null ? null : maxQueueDepth.intValue(),
                maxConcurrency == null ? null : maxConcurrency.intValue(), OperationTime.of(clock))
                .invoke(c -> fairness.concurrencyChanged(tenant, c.maxConcurrency() != null))
                .invoke(c -> depthLimits.changed(before -> {
                    Map<String, Integer> next = new LinkedHashMap<>(before);
                    if (c.maxQueueDepth() == null) {
                        next.remove(tenant);
                    } else {
                        next.put(tenant, c.maxQueueDepth());
                    }
                    return Map.copyOf(next);
                }));
    }

    public Uni<Void> remove(String tenant) {
        TenantId.check("tenant_id", tenant);
        return store.delete(tenant).map(found -> {
            if (!found) {
                throw OjsException.notFound("tenant", tenant);
            }
            depthLimits.changed(before -> {
                Map<String, Integer> next = new LinkedHashMap<>(before);
                next.remove(tenant);
                return Map.copyOf(next);
            });
            fairness.concurrencyChanged(tenant, false);
            return null;
        });
    }

    /**
     * Admits a PUSH carrying {@code jobs} new jobs per tenant into {@code queues}: 429 TENANT_LIMIT_EXCEEDED when a
     * tenant with a max_queue_depth would pass it; then gives the tenants turns in their queues (queue, tenant).
     */
    public Uni<Void> admit(Map<String, Integer> jobs, List<Map.Entry<String, String>> queueTenants) {
        if (jobs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return depthLimits.get(OperationTime.of(clock)).flatMap(limits -> Multi.createFrom().iterable(jobs.entrySet())
                .filter(e -> limits.containsKey(e.getKey()))
                .onItem().transformToUniAndConcatenate(e -> store.waiting(e.getKey()).invoke(n -> {
                    int max = limits.get(e.getKey());
                    if (n + e.getValue() > max) {
                        Map<String, Object> d = new LinkedHashMap<>();
                        d.put("tenant_id", e.getKey());
                        d.put("limit", "max_queue_depth");
                        d.put("current", n);
                        d.put("maximum", max);
                        d.put("retry_after_seconds", 1);
                        throw new OjsException(ErrorCode.TENANT_LIMIT_EXCEEDED, "Tenant '" + e.getKey()
                                + "' has exceeded max_queue_depth (" + max + ")", d);
                    }
                })).collect().last().replaceWithVoid())
                .invoke(() -> queueTenants.forEach(e -> fairness.pushed(e.getKey(), e.getValue())));
    }

    /** Forgets what this instance remembers (the reset hook empties the tables). */
    public void forget() {
        depthLimits.forget();
        fairness.forget();
    }
}
