package dev.steadfast.tenants;

import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.domain.limits.ClaimRoute;
import dev.steadfast.events.Telemetry;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.tenants.TenantLimitStore;
import dev.steadfast.store.tenants.TenantStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a FETCH's route ({@link ClaimRoute}, chosen in queues.QueueLimiter) knows of tenants, and its fair claim
 * (store.tenants.TenantClaimSql.CLAIM_FAIR), which a run of plain queues (neither limited nor holding
 * rate-limit-keyed jobs) takes when one of them holds waiting tenant jobs and steadfast.tenants.fair-claim is on;
 * else the route is JobStore's plain claim, so a deployment without tenants runs the very statement it ran before.
 * Which tenants have waiting jobs in which queue is remembered per instance and reread at most every
 * {@link #REFRESH} (a loose index scan, one probe per queue and tenant); a PUSH of a tenant job on this instance adds
 * its tenant at once. A stale memory only means, for up to {@link #REFRESH}, the plain order (a queue
 * not yet known to hold tenants), a new tenant's jobs waiting for their first turn, or a drained tenant's empty
 * probe; never a lost job.
 *
 * <p>The round-robin cursor (the tenant each queue served last) lives in this instance's memory: a FETCH lists the
 * tenants after it first, then those up to it, at most {@code count} of them. Several instances each keep their
 * own, so each takes turns on its own; no write is added to the claim for it. Bounded: at most {@link #MAX_CURSORS}
 * queues are remembered, then the memory starts over.
 *
 * <p>Tenants with a max_concurrency (MT-003) take their turns too, capped: when a FETCH's turns include a tenant
 * this instance knows to be limited (reread every {@link #REFRESH}, changed at once by this instance's admin API),
 * the fair claim runs in {@link TenantLimitStore}'s transaction under those tenants' row locks. Every other claim
 * leaves limited tenants' jobs out by the database's own list, so a stale memory delays such a tenant's jobs by up
 * to {@link #REFRESH} and never starts one past the limit. Even with steadfast.tenants.fair-claim off, a FETCH
 * whose queues hold a limited tenant's waiting jobs takes the fair claim (it is the only one that can start them).
 * The limited tenants' jobs this instance started are remembered (at most {@link #MAX_HELD}) so that finishing one
 * can wake a waiting FETCH for the tenant's next job ({@link #finished}).
 */
@ApplicationScoped
public class TenantFairness {

    static final Duration REFRESH = Duration.ofSeconds(1);
    static final int MAX_CURSORS = 10_000;
    /**
     * At least this many tenants per queue get a turn in each fair claim (more when the FETCH asks for more jobs):
     * a tenant drained since the last reread costs an empty probe, and must not use up a small FETCH's turns.
     */
    static final int MIN_TURNS = 64;
    /** At most this many started jobs of limited tenants are remembered for {@link #finished}, then it starts over. */
    static final int MAX_HELD = 100_000;

    private final TenantStore store;
    private final JobStore jobs;
    private final Telemetry telemetry;
    private final TenantsConfig config;
    private final RefreshedSnapshot<Map<String, List<String>>> tenants;
    private volatile Map<String, List<String>> known = Map.of();
    private final Map<String, String> cursors = new ConcurrentHashMap<>();
    private final TenantLimitStore limits;
    private final RefreshedSnapshot<Set<String>> limited;
    /** Started jobs of limited tenants, by id: their tenant. */
    private final Map<UUID, String> held = new ConcurrentHashMap<>();

    public TenantFairness(TenantStore store, JobStore jobs, TenantsConfig config, TenantLimitStore limits,
                          Telemetry telemetry) {
        this.telemetry = telemetry;
        this.store = store;
        this.jobs = jobs;
        this.config = config;
        this.limits = limits;
        this.tenants = new RefreshedSnapshot<>(REFRESH, () -> store.tenantQueues().invoke(m -> known = m));
        this.limited = new RefreshedSnapshot<>(REFRESH, store::concurrencyLimited);
    }

    /**
     * What a FETCH's route needs to know of tenants ({@link ClaimRoute#plan}), beside the queues' limits and keys the
     * caller knows: the limited tenants, and which tenants wait in which queue when that matters (the fair claim is on
     * or a tenant is limited; else not even reread).
     */
    public Uni<ClaimRoute.Known> known(Set<String> limitedQueues, Set<String> keyedQueues, Instant now) {
        boolean on = config.fairClaim();
        return limited.get(now).flatMap(lim -> !ClaimRoute.Known.tenantsMatter(on, lim)
                ? Uni.createFrom().item(new ClaimRoute.Known(limitedQueues, keyedQueues, Map.of(), lim, on))
                : tenants.get(now).map(byQueue -> new ClaimRoute.Known(limitedQueues, keyedQueues, byQueue, lim, on)));
    }

    /**
     * A {@link ClaimRoute.Way#FAIR} leg: turns between the tenants waiting in {@code queues} (after each queue's
     * cursor), capped under the limited tenants' row locks when the turns include one; the plain claim when the
     * tenants have gone since the route was chosen.
     */
    public Uni<List<JobRow>> claimFair(List<String> queues, int count, String workerId, Long visibilityMs,
                                       Instant now) {
        return limited.get(now).flatMap(lim -> tenants.get(now).flatMap(byQueue -> {
            List<Map.Entry<String, String>> turns = turns(queues, byQueue, cursors, count);
            if (turns.isEmpty()) {
                return jobs.claim(queues, count, workerId, visibilityMs, now).map(c -> telemetry.startedBy(c, now));
            }
            Set<String> capped = new TreeSet<>();
            turns.forEach(e -> {
                if (lim.contains(e.getValue())) {
                    capped.add(e.getValue());
                }
            });
            Uni<TenantStore.FairClaim> claim = capped.isEmpty()
                    ? store.claimFair(queues, turns, count, workerId, visibilityMs, now)
                    : limits.claimFair(queues, turns, capped, count, workerId, visibilityMs, now);
            return claim.map(c -> {
                if (cursors.size() > MAX_CURSORS) {
                    cursors.clear();
                }
                cursors.putAll(c.lastServed());
                if (!capped.isEmpty()) {
                    c.tenants().forEach((id, t) -> {
                        if (capped.contains(t)) {
                            hold(id, t);
                        }
                    });
                }
                return c.jobs();
            });
        }));
    }

    private void hold(UUID id, String tenant) {
        if (held.size() >= MAX_HELD) {
            held.clear();
        }
        held.put(id, tenant);
    }

    /**
     * A job finished (ACK, FAIL): when this instance started it for a limited tenant, the queues in which that tenant
     * has waiting jobs (as last read), where a FETCH waiting for work may now start one; else none.
     */
    public List<String> finished(UUID id) {
        String tenant = held.remove(id);
        if (tenant == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        known.forEach((q, ts) -> {
            if (ts.contains(tenant)) {
                out.add(q);
            }
        });
        return out;
    }

    /** This instance's admin API set ({@code limited}) or removed a tenant's max_concurrency: effective at once. */
    public void concurrencyChanged(String tenant, boolean isLimited) {
        limited.changed(before -> {
            Set<String> next = new HashSet<>(before);
            if (isLimited) {
                next.add(tenant);
            } else {
                next.remove(tenant);
            }
            return Set.copyOf(next);
        });
    }

    /**
     * The (queue, tenant) pairs of one fair claim in turn order: per queue, the tenants after the queue's cursor in
     * tenant order, then those up to and including it, at most {@code max(count, MIN_TURNS)}.
     */
    static List<Map.Entry<String, String>> turns(List<String> queues, Map<String, List<String>> byQueue,
                                                 Map<String, String> cursors, int count) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        for (String q : queues) {
            List<String> ts = byQueue.get(q);
            if (ts == null || ts.isEmpty()) {
                continue;
            }
            String cur = cursors.getOrDefault(q, "");
            int start = 0;
            while (start < ts.size() && ts.get(start).compareTo(cur) <= 0) {
                start++;
            }
            for (int i = 0; i < Math.min(Math.max(count, MIN_TURNS), ts.size()); i++) {
                out.add(Map.entry(q, ts.get((start + i) % ts.size())));
            }
        }
        return out;
    }

    /** FETCH by a worker that named its tenant: only that tenant's jobs (ojs-multi-tenancy 6.2). */
    public Uni<List<JobRow>> claimOf(String tenant, List<String> queues, int count, String workerId,
                                     Long visibilityMs, Instant now) {
        return limited.get(now).flatMap(lim -> !lim.contains(tenant)
                ? store.claimOfTenant(queues, tenant, count, workerId, visibilityMs, now)
                : limits.claimOfTenant(queues, tenant, count, workerId, visibilityMs, now).invoke(rows ->
                        rows.forEach(j -> hold(j.id(), tenant))));
    }

    /** {@code tenant} pushed a job into {@code queue}: this instance's FETCH gives it turns there from now on. */
    public void pushed(String queue, String tenant) {
        List<String> ts = known.get(queue);
        if (ts != null && ts.contains(tenant)) {
            return;
        }
        tenants.changed(before -> with(before, queue, tenant));
        known = with(known, queue, tenant);
    }

    private static Map<String, List<String>> with(Map<String, List<String>> before, String queue, String tenant) {
        Map<String, List<String>> next = new HashMap<>(before);
        TreeSet<String> ts = new TreeSet<>(next.getOrDefault(queue, List.of()));
        ts.add(tenant);
        next.put(queue, List.copyOf(ts));
        return Map.copyOf(next);
    }

    /** Forgets what this instance remembers (the reset hook empties the tables). */
    public void forget() {
        tenants.forget();
        limited.forget();
        known = Map.of();
        cursors.clear();
        held.clear();
    }
}
