package dev.steadfast.tenants;

import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.store.JobRow;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.tenants.TenantStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the claim for a FETCH over plain queues (neither limited nor holding rate-limit-keyed jobs): the fair
 * claim (store.tenants.TenantClaimSql.CLAIM_FAIR) when one of the queues holds waiting tenant jobs and
 * steadfast.tenants.fair-claim is on, else JobStore's plain claim, so a deployment without tenants runs the very
 * statement it ran before. Which tenants have waiting jobs in which queue is remembered per instance and reread at
 * most every {@link #REFRESH} (a loose index scan, one probe per queue and tenant); a PUSH of a tenant job on this
 * instance adds its tenant at once. A stale memory only means, for up to {@link #REFRESH}, the plain order (a queue
 * not yet known to hold tenants), a new tenant's jobs waiting for their first turn, or a drained tenant's empty
 * probe; never a lost job.
 *
 * <p>The round-robin cursor (the tenant each queue served last) lives in this instance's memory: a FETCH lists the
 * tenants after it first, then those up to it, at most {@code count} of them. Several instances each keep their
 * own, so each takes turns on its own; no write is added to the claim for it. Bounded: at most {@link #MAX_CURSORS}
 * queues are remembered, then the memory starts over.
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

    private final TenantStore store;
    private final JobStore jobs;
    private final TenantsConfig config;
    private final RefreshedSnapshot<Map<String, List<String>>> tenants;
    private volatile Map<String, List<String>> known = Map.of();
    private final Map<String, String> cursors = new ConcurrentHashMap<>();

    public TenantFairness(TenantStore store, JobStore jobs, TenantsConfig config) {
        this.store = store;
        this.jobs = jobs;
        this.config = config;
        this.tenants = new RefreshedSnapshot<>(REFRESH, () -> store.tenantQueues().invoke(m -> known = m));
    }

    /** Claims from plain queues: fair between tenants where a queue holds tenant jobs, else the plain claim. */
    public Uni<List<JobRow>> claim(List<String> queues, int count, String workerId, Long visibilityMs, Instant now) {
        if (!config.fairClaim()) {
            return jobs.claim(queues, count, workerId, visibilityMs, now);
        }
        return tenants.get(now).flatMap(byQueue -> {
            List<Map.Entry<String, String>> turns = turns(queues, byQueue, cursors, count);
            if (turns.isEmpty()) {
                return jobs.claim(queues, count, workerId, visibilityMs, now);
            }
            return store.claimFair(queues, turns, count, workerId, visibilityMs, now).map(c -> {
                if (cursors.size() > MAX_CURSORS) {
                    cursors.clear();
                }
                cursors.putAll(c.lastServed());
                return c.jobs();
            });
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
        return store.claimOfTenant(queues, tenant, count, workerId, visibilityMs, now);
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
        known = Map.of();
        cursors.clear();
    }
}
