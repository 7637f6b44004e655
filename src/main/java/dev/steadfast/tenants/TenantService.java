package dev.steadfast.tenants;

import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.TenantId;
import dev.steadfast.domain.limits.EnqueueRate;
import dev.steadfast.domain.limits.TenantConcurrency;
import dev.steadfast.store.tenants.TenantAdmissionStore;
import dev.steadfast.store.tenants.TenantStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tenants as an operator sees them (ojs-multi-tenancy.md 8 and 10): their statistics, their configuration (fairness
 * weight, max_concurrency: enforced at FETCH, see {@link TenantFairness}; max_queue_depth, max_scheduled and
 * max_enqueue_rate: checked when jobs are pushed, see {@link TenantAdmission}). Which tenants have a limit checked at
 * PUSH is remembered per instance and reread at most once a second, so only their PUSHes pay for it
 * (docs/concepts/tenants.md).
 */
@ApplicationScoped
public class TenantService {

    static final Duration REFRESH = Duration.ofSeconds(1);
    static final int MAX_WEIGHT = 1000;

    private final TenantStore store;
    private final TenantFairness fairness;
    private final Clock clock;
    private final RefreshedSnapshot<Map<String, TenantStore.Limits>> admissionLimits;
    private final TenantAdmission admission;

    public TenantService(TenantStore store, TenantFairness fairness, Clock clock, TenantAdmissionStore admissionStore,
                         TenantAdmission admission) {
        this.store = store;
        this.fairness = fairness;
        this.clock = clock;
        this.admission = admission;
        this.admissionLimits = new RefreshedSnapshot<>(REFRESH, admissionStore::admissionLimits);
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
        return store.find(TenantId.checkConfigured("tenant_id", tenant));
    }

    public Uni<TenantStore.Config> get(String tenant) {
        TenantId.checkConfigured("tenant_id", tenant);
        return store.find(tenant).map(o -> o.orElseThrow(() -> OjsException.notFound("tenant", tenant)));
    }

    /** A tenant's limits as a request sent them (null: none), their types checked, their ranges not yet. */
    public record RequestedLimits(Long maxQueueDepth, Long maxConcurrency, Long maxScheduled, Long enqueueRateLimit,
                                  String enqueueRatePeriod) {
        public static final RequestedLimits NONE = new RequestedLimits(null, null, null, null, null);
    }

    /**
     * Creates or replaces a tenant's configuration; weight 1 to {@link #MAX_WEIGHT}, depth and scheduled limits 0 or
     * more, concurrency limit 1 or more ({@link TenantConcurrency}), an enqueue rate of 1 or more jobs per ISO 8601
     * period from {@link EnqueueRate#MIN_PERIOD} to {@link EnqueueRate#MAX_PERIOD}; null: the default (weight 1, no
     * limit). A bad value is refused before anything is written.
     */
    public Uni<TenantStore.Config> configure(String tenant, Long weight, RequestedLimits l) {
        TenantId.checkConfigured("tenant_id", tenant);
        if (TenantId.DEFAULT.equals(tenant)) {
            defaultTenantTakes(weight, l);
        }
        if (weight != null && (weight < 1 || weight > MAX_WEIGHT)) {
            throw OjsException.invalidField("fairness_weight", "'fairness_weight' must be an integer from 1 to "
                    + MAX_WEIGHT + ".", "1 to " + MAX_WEIGHT, weight.toString());
        }
        Integer depth = count("max_queue_depth", l.maxQueueDepth());
        Integer scheduled = count("max_scheduled", l.maxScheduled());
        Long maxConcurrency = l.maxConcurrency();
        if (!TenantConcurrency.valid(maxConcurrency)) {
            throw OjsException.invalidField("limits.max_concurrency", "'max_concurrency' must be an integer from 1"
                    + " to " + TenantConcurrency.MAX + ", or null for no limit.", "1 to " + TenantConcurrency.MAX,
                    maxConcurrency.toString());
        }
        EnqueueRate rate = rate(l.enqueueRateLimit(), l.enqueueRatePeriod());
        TenantStore.Limits limits = new TenantStore.Limits(depth, maxConcurrency == null ? null
                : maxConcurrency.intValue(), scheduled, rate == null ? null : rate.limit(),
                rate == null ? null : rate.period().toMillis());
        return store.save(tenant, weight == null ? 1 : weight.intValue(), limits, OperationTime.of(clock))
                .invoke(c -> fairness.concurrencyChanged(tenant, c.maxConcurrency() != null))
                .invoke(c -> admissionLimits.changed(before -> {
                    Map<String, TenantStore.Limits> next = new LinkedHashMap<>(before);
                    if (TenantAdmission.checkedAtPush(c.limits())) {
                        next.put(tenant, c.limits());
                    } else {
                        next.remove(tenant);
                    }
                    return Map.copyOf(next);
                }));
    }

    /**
     * The default tenant (jobs without a tenant, ojs-multi-tenancy 15.3) takes max_enqueue_rate only: its other limits
     * would have to count jobs without a tenant, which no index holds (an index of them would be written by every
     * plain PUSH and claim), and its weight has no turn to apply to; each is refused with 400 naming it.
     */
    private static void defaultTenantTakes(Long weight, RequestedLimits l) {
        Object[][] refused = {{"fairness_weight", weight != null && weight != 1 ? weight : null},
            {"limits.max_queue_depth", l.maxQueueDepth()}, {"limits.max_concurrency", l.maxConcurrency()},
            {"limits.max_scheduled", l.maxScheduled()}};
        for (Object[] r : refused) {
            if (r[1] != null) {
                throw OjsException.invalidField((String) r[0], "'" + r[0] + "' cannot be set for " + TenantId.DEFAULT
                        + " (jobs without a tenant): only limits.max_enqueue_rate can; bound their queues'"
                        + " depth instead (ojs-backpressure).", "null", r[1].toString());
            }
        }
    }

    /** A count limit (max_queue_depth, max_scheduled): 0 to Integer.MAX_VALUE, or null. */
    private static Integer count(String name, Long v) {
        if (v != null && (v < 0 || v > Integer.MAX_VALUE)) {
            throw OjsException.invalidField("limits." + name, "'" + name + "' must be an integer from 0 to "
                    + Integer.MAX_VALUE + ".", "0 to " + Integer.MAX_VALUE, v.toString());
        }
        return v == null ? null : v.intValue();
    }

    /** max_enqueue_rate: both fields or neither; limit 1 to Integer.MAX_VALUE, period an ISO 8601 duration in range. */
    private static EnqueueRate rate(Long limit, String period) {
        if (limit == null && period == null) {
            return null;
        }
        if (limit == null || limit < 1 || limit > Integer.MAX_VALUE) {
            throw OjsException.invalidField("limits.max_enqueue_rate.limit", "'max_enqueue_rate.limit' must be an"
                    + " integer from 1 to " + Integer.MAX_VALUE + ".", "1 to " + Integer.MAX_VALUE, String.valueOf(limit));
        }
        Duration d = null;
        try {
            d = period == null ? null : Duration.parse(period);
        } catch (DateTimeParseException e) {
            // refused below
        }
        if (d == null || d.compareTo(EnqueueRate.MIN_PERIOD) < 0 || d.compareTo(EnqueueRate.MAX_PERIOD) > 0) {
            throw OjsException.invalidField("limits.max_enqueue_rate.period", "'max_enqueue_rate.period' must be an"
                    + " ISO 8601 duration from PT1S to P1D, such as \"PT1M\".", "PT1S to P1D", String.valueOf(period));
        }
        return new EnqueueRate(limit.intValue(), d);
    }

    public Uni<Void> remove(String tenant) {
        TenantId.checkConfigured("tenant_id", tenant);
        return store.delete(tenant).map(found -> {
            if (!found) {
                throw OjsException.notFound("tenant", tenant);
            }
            admissionLimits.changed(before -> {
                Map<String, TenantStore.Limits> next = new LinkedHashMap<>(before);
                next.remove(tenant);
                return Map.copyOf(next);
            });
            fairness.concurrencyChanged(tenant, false);
            return null;
        });
    }

    /**
     * Admits a PUSH carrying {@code jobs} new jobs per tenant, {@code scheduled} of them scheduled for later, into
     * their queues ({@link TenantAdmission}: 429 TENANT_LIMIT_EXCEEDED when a tenant would pass its max_queue_depth,
     * max_scheduled or max_enqueue_rate); then gives the tenants turns in their queues (queue, tenant).
     */
    public Uni<Void> admit(Map<String, Integer> jobs, Map<String, Integer> scheduled,
                           List<Map.Entry<String, String>> queueTenants) {
        if (jobs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Instant now = OperationTime.of(clock);
        return admissionLimits.get(now).flatMap(limits -> Multi.createFrom().iterable(jobs.entrySet())
                .filter(e -> limits.containsKey(e.getKey()))
                .onItem().transformToUniAndConcatenate(e -> admission.admit(e.getKey(), limits.get(e.getKey()),
                        e.getValue(), scheduled.getOrDefault(e.getKey(), 0), now))
                .collect().last().replaceWithVoid())
                .invoke(() -> queueTenants.forEach(e -> fairness.pushed(e.getKey(), e.getValue())));
    }

    /**
     * Admits a PUSH of {@code jobs} jobs without a tenant: the default tenant's max_enqueue_rate when it has one
     * (known from the limits reread once a second; nothing else is read).
     */
    public Uni<Void> admitUntenanted(int jobs) {
        Instant now = OperationTime.of(clock);
        return admissionLimits.get(now).flatMap(limits -> {
            TenantStore.Limits l = limits.get(TenantId.DEFAULT);
            return l == null ? Uni.createFrom().voidItem() : admission.admit(TenantId.DEFAULT, l, jobs, 0, now);
        });
    }

    /** Forgets what this instance remembers (the reset hook empties the tables). */
    public void forget() {
        admissionLimits.forget();
        fairness.forget();
    }
}
