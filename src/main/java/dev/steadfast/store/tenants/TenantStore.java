package dev.steadfast.store.tenants;

import dev.steadfast.domain.JobState;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The SQL of tenants (V23__tenants_and_pools.sql): the two tenant-aware claims ({@link TenantClaimSql}), which
 * queues hold claimable tenant jobs, a tenant's counts, and its configuration row (weight and limits). Jobs without
 * a tenant never enter the partial indexes these statements read.
 */
@ApplicationScoped
public class TenantStore {

    /**
     * Every (queue, tenant) with a live waiting job, in that order: a loose index scan of jobs_tenant_claim_idx,
     * one probe per pair however many jobs a tenant holds. Read once a second per instance (TenantFairness).
     */
    static final String TENANT_QUEUES = """
            WITH RECURSIVE p AS (
                (SELECT queue, tenant_id FROM jobs
                 WHERE tenant_id IS NOT NULL AND state IN ('available', 'scheduled', 'retryable')
                 ORDER BY queue, tenant_id LIMIT 1)
              UNION ALL
                SELECT x.queue, x.tenant_id FROM p CROSS JOIN LATERAL (
                    SELECT queue, tenant_id FROM jobs
                    WHERE tenant_id IS NOT NULL AND state IN ('available', 'scheduled', 'retryable')
                      AND (queue, tenant_id) > (p.queue, p.tenant_id)
                    ORDER BY queue, tenant_id LIMIT 1) x)
            SELECT queue, tenant_id FROM p LIMIT 100000""";

    /** A tenant's live jobs by state (jobs_tenant_state_idx), optionally of one queue ($2 null: all). */
    static final String LIVE_COUNTS = """
            SELECT state, count(*) AS n FROM jobs WHERE tenant_id = $1 AND ($2::text IS NULL OR queue = $2)
            GROUP BY state""";

    /**
     * A tenant's finished jobs by state: all kept ($2 null) or those finished since $2 (job_history_tenant_idx in
     * each day's partition), optionally of one queue ($3).
     */
    static final String FINISHED_COUNTS = """
            SELECT state, dead_letter, count(*) AS n FROM job_history
            WHERE tenant_id = $1 AND ($2::timestamptz IS NULL OR finished_at >= $2)
              AND ($3::text IS NULL OR queue = $3)
            GROUP BY state, dead_letter""";

    /** Every tenant with live jobs or a configuration row, with its live jobs by state. */
    static final String LIST_TENANTS = """
            SELECT t.id, s.state, coalesce(s.n, 0) AS n FROM (
                SELECT DISTINCT tenant_id AS id FROM jobs WHERE tenant_id IS NOT NULL
                UNION SELECT id FROM tenants) t
            LEFT JOIN (SELECT tenant_id, state, count(*) AS n FROM jobs WHERE tenant_id IS NOT NULL
                       GROUP BY tenant_id, state) s ON s.tenant_id = t.id
            ORDER BY t.id LIMIT 10000""";

    /** A tenant's configuration columns, as {@link Config#of} reads them. */
    private static final String CONFIG_COLUMNS = "id, fairness_weight, max_queue_depth, max_concurrency, max_scheduled,"
            + " max_enqueue_rate_limit, max_enqueue_rate_period_ms, created_at, updated_at";

    static final String FIND_CONFIG = "SELECT " + CONFIG_COLUMNS + " FROM tenants WHERE id = $1";

    /**
     * Creates or replaces a tenant's configuration. The enqueue bucket (V35) starts full again: a changed rate is not
     * measured against tokens counted under the old one.
     */
    static final String UPSERT_CONFIG = """
            INSERT INTO tenants (id, fairness_weight, max_queue_depth, max_concurrency, max_scheduled,
                                 max_enqueue_rate_limit, max_enqueue_rate_period_ms, created_at, updated_at)
            VALUES ($1, $2, $3, $5, $6, $7, $8, $4, $4)
            ON CONFLICT (id) DO UPDATE SET fairness_weight = $2, max_queue_depth = $3, max_concurrency = $5,
                   max_scheduled = $6, max_enqueue_rate_limit = $7, max_enqueue_rate_period_ms = $8,
                   enqueue_tokens = NULL, enqueue_tokens_at = NULL, updated_at = $4
            RETURNING\s""" + CONFIG_COLUMNS;

    static final String DELETE_CONFIG = "DELETE FROM tenants WHERE id = $1";

    /** The tenants with a concurrency limit (tenants_concurrency_idx; read once a second per instance). */
    static final String CONCURRENCY_LIMITED = "SELECT id FROM tenants WHERE max_concurrency IS NOT NULL";

    /** A tenant's configuration row. */
    public record Config(String id, int weight, Limits limits, Instant createdAt, Instant updatedAt) {
        static Config of(Row r) {
            return new Config(r.getString("id"), r.getInteger("fairness_weight"), Limits.of(r),
                    JobRows.instant(r, "created_at"), JobRows.instant(r, "updated_at"));
        }

        public Integer maxQueueDepth() {
            return limits.maxQueueDepth();
        }

        public Integer maxConcurrency() {
            return limits.maxConcurrency();
        }
    }

    /** A tenant's limits (null: none): ojs-multi-tenancy 8.1; the enqueue rate as limit per period in ms. */
    public record Limits(Integer maxQueueDepth, Integer maxConcurrency, Integer maxScheduled, Integer enqueueRateLimit,
                         Long enqueueRatePeriodMs) {

        public static final Limits NONE = new Limits(null, null, null, null, null);

        static Limits of(Row r) {
            return new Limits(r.getInteger("max_queue_depth"), r.getInteger("max_concurrency"),
                    r.getInteger("max_scheduled"), r.getInteger("max_enqueue_rate_limit"),
                    r.getLong("max_enqueue_rate_period_ms"));
        }
    }

    /** Jobs by state, every state present; {@code deadLetters} among the discarded. */
    public record Counts(Map<JobState, Long> byState, long deadLetters) {
    }

    /**
     * A fair claim's jobs in claim order, per queue the tenant key it served last ('' for no tenant), and each job's
     * tenant key.
     */
    public record FairClaim(List<JobRow> jobs, Map<String, String> lastServed, Map<UUID, String> tenants) {
    }

    private final Pool pool;

    public TenantStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * {@link TenantClaimSql#CLAIM_FAIR}: {@code turns} the (queue, tenant) pairs in turn order. Tenants with a
     * max_concurrency are left out (TenantLimitStore claims them).
     */
    public Uni<FairClaim> claimFair(List<String> queues, List<Map.Entry<String, String>> turns, int count,
                                    String workerId, Long visibilityMs, Instant now) {
        return pool.preparedQuery(TenantClaimSql.CLAIM_FAIR)
                .execute(fairArgs(queues, turns, count, workerId, visibilityMs, now, Map.of()))
                .map(TenantStore::fair);
    }

    /** CLAIM_FAIR's parameters; {@code allowed}: limited tenants locked by the caller, with their allowances. */
    static Tuple fairArgs(List<String> queues, List<Map.Entry<String, String>> turns, int count, String workerId,
                          Long visibilityMs, Instant now, Map<String, Integer> allowed) {
        String[] q = new String[turns.size()];
        String[] t = new String[turns.size()];
        for (int i = 0; i < q.length; i++) {
            q[i] = turns.get(i).getKey();
            t[i] = turns.get(i).getValue();
        }
        return Tuple.tuple(Arrays.asList(queues.toArray(String[]::new), JobStore.odt(now), count, workerId,
                visibilityMs, q, t, allowed.keySet().toArray(String[]::new),
                allowed.values().toArray(Integer[]::new)));
    }

    static FairClaim fair(RowSet<Row> rows) {
        List<JobRow> out = new ArrayList<>(rows.rowCount());
        Map<UUID, Long> pos = new HashMap<>();
        Map<String, Long> lastPos = new HashMap<>();
        Map<String, String> last = new LinkedHashMap<>();
        Map<UUID, String> tenants = new HashMap<>();
        for (Row r : rows) {
            JobRow j = JobRows.from(r);
            long p = r.getLong("pos");
            pos.put(j.id(), p);
            out.add(j);
            tenants.put(j.id(), r.getString("k"));
            if (p > lastPos.getOrDefault(j.queue(), 0L)) {
                lastPos.put(j.queue(), p);
                last.put(j.queue(), r.getString("k"));
            }
        }
        out.sort(Comparator.comparingLong(j -> pos.get(j.id())));
        return new FairClaim(out, last, tenants);
    }

    /** {@link TenantClaimSql#CLAIM_OF_TENANT}: only {@code tenant}'s jobs. */
    public Uni<List<JobRow>> claimOfTenant(List<String> queues, String tenant, int count, String workerId,
                                           Long visibilityMs, Instant now) {
        Tuple t = Tuple.tuple(Arrays.asList(queues.toArray(String[]::new), JobStore.odt(now), count, workerId,
                visibilityMs, tenant));
        return pool.preparedQuery(TenantClaimSql.CLAIM_OF_TENANT).execute(t).map(JobStore::claimed);
    }

    /** The tenants with waiting jobs, by queue, each list in tenant order. */
    public Uni<Map<String, List<String>>> tenantQueues() {
        return pool.query(TENANT_QUEUES).execute().map(rows -> {
            Map<String, List<String>> out = new HashMap<>();
            rows.forEach(r -> out.computeIfAbsent(r.getString(0), k -> new ArrayList<>()).add(r.getString(1)));
            Map<String, List<String>> frozen = new HashMap<>();
            out.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
            return Map.copyOf(frozen);
        });
    }

    /** A tenant's live jobs by state plus its kept finished ones ({@code since} null: all kept), of one queue or all. */
    public Uni<Counts> counts(String tenant, String queue, Instant since) {
        return pool.preparedQuery(LIVE_COUNTS).execute(Tuple.of(tenant, queue)).flatMap(live ->
                pool.preparedQuery(FINISHED_COUNTS).execute(Tuple.of(tenant, JobStore.odt(since), queue)).map(done -> {
                    Map<JobState, Long> by = new EnumMap<>(JobState.class);
                    for (JobState s : JobState.values()) {
                        by.put(s, 0L);
                    }
                    long dead = 0;
                    for (Row r : live) {
                        JobState.fromWire(r.getString("state")).ifPresent(s -> by.merge(s, r.getLong("n"), Long::sum));
                    }
                    for (Row r : done) {
                        long n = r.getLong("n");
                        JobState.fromWire(r.getString("state")).ifPresent(s -> by.merge(s, n, Long::sum));
                        if (Boolean.TRUE.equals(r.getBoolean("dead_letter"))) {
                            dead += n;
                        }
                    }
                    return new Counts(Map.copyOf(by), dead);
                }));
    }

    /** Every known tenant (live jobs or a configuration row) with its live jobs by state, by id. */
    public Uni<Map<String, Map<String, Long>>> list() {
        return pool.query(LIST_TENANTS).execute().map(rows -> {
            Map<String, Map<String, Long>> out = new LinkedHashMap<>();
            for (Row r : rows) {
                Map<String, Long> m = out.computeIfAbsent(r.getString("id"), k -> new LinkedHashMap<>());
                if (r.getString("state") != null) {
                    m.put(r.getString("state"), r.getLong("n"));
                }
            }
            return out;
        });
    }

    public Uni<Optional<Config>> find(String id) {
        return pool.preparedQuery(FIND_CONFIG).execute(Tuple.of(id))
                .map(rows -> rows.rowCount() == 0 ? Optional.empty() : Optional.of(Config.of(rows.iterator().next())));
    }

    public Uni<Config> save(String id, int weight, Limits l, Instant now) {
        return pool.preparedQuery(UPSERT_CONFIG)
                .execute(Tuple.tuple(Arrays.asList(id, weight, l.maxQueueDepth(), JobStore.odt(now), l.maxConcurrency(),
                        l.maxScheduled(), l.enqueueRateLimit(), l.enqueueRatePeriodMs())))
                .map(rows -> Config.of(rows.iterator().next()));
    }

    public Uni<Boolean> delete(String id) {
        return pool.preparedQuery(DELETE_CONFIG).execute(Tuple.of(id)).map(rows -> rows.rowCount() > 0);
    }

    /** The ids of the tenants with a max_concurrency. */
    public Uni<Set<String>> concurrencyLimited() {
        return pool.query(CONCURRENCY_LIMITED).execute().map(rows -> {
            Set<String> out = new HashSet<>();
            rows.forEach(r -> out.add(r.getString(0)));
            return Set.copyOf(out);
        });
    }
}
