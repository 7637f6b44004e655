package dev.steadfast.store.tenants;

import dev.steadfast.domain.limits.TenantConcurrency;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Claims the jobs of tenants with a max_concurrency (ojs-multi-tenancy.md 8.1, MT-003), the way QueueLimitStore
 * claims a limited queue: one transaction locks the tenants' rows (LOCK_TENANTS, in id order, so two FETCHes
 * sharing tenants cannot deadlock), counts their active jobs in a new statement (so it sees what the previous
 * holder of the lock committed), lets {@link TenantConcurrency} decide each tenant's allowance, and claims within
 * it; the keyed claim takes them the same way ({@link #allowances}, JobSql.CLAIM_KEYED). Every other claim leaves
 * these tenants' jobs out (JobSql.NOT_LIMITED_TENANT, TenantClaimSql.UNLIMITED), so
 * the limit holds across concurrent FETCHes and instances: FETCHes of one limited tenant run one after another,
 * each for the few milliseconds of three statements. Tenants without a limit never come here.
 *
 * <p>Limits: a job active before its tenant's limit was set counts against it (a lowered limit starts nothing until
 * the tenant is below it); a claim statement already running when a limit is set may still start that tenant's
 * jobs uncounted, once.
 */
@ApplicationScoped
public class TenantLimitStore {

    /** The limited FETCH's first statement: the rows of the tenants that (still) have a limit, locked in id order. */
    static final String LOCK_TENANTS = """
            SELECT id, max_concurrency FROM tenants WHERE id = ANY($1::text[]) AND max_concurrency IS NOT NULL
            ORDER BY id FOR UPDATE""";

    /** Active jobs per tenant across all queues, after the lock, in its own statement (jobs_tenant_state_idx). */
    static final String ACTIVE_OF_TENANTS = """
            SELECT tenant_id, count(*) FROM jobs WHERE tenant_id = ANY($1::text[]) AND state = 'active'
            GROUP BY tenant_id""";

    private final Pool pool;

    public TenantLimitStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * {@link TenantClaimSql#CLAIM_FAIR} with the tenants of {@code limited} that still have a limit locked and
     * capped to what it leaves; a tenant at its limit gets no turn, one whose limit was removed an uncapped one.
     */
    public Uni<TenantStore.FairClaim> claimFair(List<String> queues, List<Map.Entry<String, String>> turns,
                                               Collection<String> limited, int count, String workerId,
                                               Long visibilityMs, Instant now) {
        return pool.withTransaction(conn -> allowances(conn, limited, count).flatMap(allowed ->
                conn.preparedQuery(TenantClaimSql.CLAIM_FAIR)
                        .execute(TenantStore.fairArgs(queues, turns, count, workerId, visibilityMs, now, allowed)))
                .map(TenantStore::fair));
    }

    /** A FETCH naming a limited tenant (X-OJS-Tenant): at most what the tenant's limit leaves. */
    public Uni<List<JobRow>> claimOfTenant(List<String> queues, String tenant, int count, String workerId,
                                           Long visibilityMs, Instant now) {
        return pool.withTransaction(conn -> lock(conn, List.of(tenant)).flatMap(limits -> {
            if (!limits.containsKey(tenant)) {
                return run(conn, TenantClaimSql.CLAIM_OF_TENANT, queues, tenant, count, workerId, visibilityMs, now);
            }
            return active(conn, List.of(tenant)).flatMap(active -> {
                int n = TenantConcurrency.allowance(limits.get(tenant), active.getOrDefault(tenant, 0L), count);
                return n == 0 ? Uni.createFrom().item(List.<JobRow>of())
                        : run(conn, TenantClaimSql.CLAIM_OF_LIMITED_TENANT, queues, tenant, n, workerId,
                                visibilityMs, now);
            });
        }));
    }

    /**
     * Inside a limited queue's transaction (QueueLimitStore.claim, which holds the queue row's lock and passes what
     * the queue's limits still leave as {@code count}): the jobs of {@code limited} tenants in {@code queue}, each
     * tenant within its own limit, under the tenants' row locks (queue row first, then tenants in id order, so no
     * two FETCHes lock in opposite orders).
     */
    public static Uni<List<JobRow>> claimInLimitedQueue(SqlConnection conn, String queue, Collection<String> limited,
                                                        int count, String workerId, Long visibilityMs, Instant now) {
        return allowances(conn, limited, count).flatMap(allowed -> allowed.isEmpty()
                ? Uni.createFrom().item(List.<JobRow>of())
                : conn.preparedQuery(TenantClaimSql.CLAIM_TENANTS_IN_LIMITED_QUEUE).execute(Tuple.tuple(
                        Arrays.asList(new String[] {queue}, JobStore.odt(now), count, workerId, visibilityMs,
                                allowed.keySet().toArray(String[]::new), allowed.values().toArray(Integer[]::new))))
                        .map(JobStore::claimed));
    }

    private static Uni<List<JobRow>> run(SqlConnection conn, String sql, List<String> queues, String tenant,
                                         int count, String workerId, Long visibilityMs, Instant now) {
        Tuple t = Tuple.tuple(Arrays.asList(queues.toArray(String[]::new), JobStore.odt(now), count, workerId,
                visibilityMs, tenant));
        return conn.preparedQuery(sql).execute(t).map(JobStore::claimed);
    }

    /**
     * Locks the rows of {@code tenants} that still have a limit (in id order) and answers the allowance of each one
     * below its limit, for a claim of at most {@code count} (tenants at their limit are left out).
     */
    public static Uni<Map<String, Integer>> allowances(SqlConnection conn, Collection<String> tenants, int count) {
        return lock(conn, tenants).flatMap(limits -> limits.isEmpty() ? Uni.createFrom().item(Map.<String, Integer>of())
                : active(conn, limits.keySet()).map(active -> {
                    Map<String, Integer> out = new LinkedHashMap<>();
                    limits.forEach((t, max) -> {
                        int n = TenantConcurrency.allowance(max, active.getOrDefault(t, 0L), count);
                        if (n > 0) {
                            out.put(t, n);
                        }
                    });
                    return out;
                }));
    }

    private static Uni<Map<String, Integer>> lock(SqlConnection conn, Collection<String> tenants) {
        return conn.preparedQuery(LOCK_TENANTS).execute(Tuple.of(tenants.toArray(String[]::new))).map(rows -> {
            Map<String, Integer> out = new LinkedHashMap<>();
            for (Row r : rows) {
                out.put(r.getString(0), r.getInteger(1));
            }
            return out;
        });
    }

    private static Uni<Map<String, Long>> active(SqlConnection conn, Collection<String> tenants) {
        return conn.preparedQuery(ACTIVE_OF_TENANTS).execute(Tuple.of(tenants.toArray(String[]::new))).map(rows -> {
            Map<String, Long> out = new HashMap<>();
            rows.forEach(r -> out.put(r.getString(0), r.getLong(1)));
            return out;
        });
    }
}
