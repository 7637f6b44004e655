package dev.steadfast.store.queues;

import dev.steadfast.domain.limits.PartitionState;
import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.domain.limits.RateLimitPolicy.Window;
import dev.steadfast.domain.limits.RateLimitRule;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobSql;
import dev.steadfast.store.JobStore;
import dev.steadfast.store.tenants.TenantLimitStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Per-key rate limits (ojs-rate-limiting.md 6), enforced at claim time by every instance alike. Each key has one row
 * in rate_limits (its limits, set by the newest PUSH naming it, and its partition's memory); its jobs carry the key
 * in jobs.rate_limit_key. A FETCH from queues holding keyed jobs is one transaction ({@link #claim}): find the keys
 * with claimable jobs there (WAITING_KEYS), lock their rows with SKIP LOCKED (a key another FETCH is deciding is
 * passed over this time, never waited for, so no fetch blocks another), count their active jobs in a new statement
 * (it sees what the previous holder of a key committed), let {@link RateLimitRule} decide each key's allowance, claim
 * (JobSql.CLAIM_KEYED) and record the starts. The check, the claim and the count's increment are thus atomic per
 * key across instances (6.2), and the active count is read from the jobs themselves, so it cannot drift (5.1).
 * Jobs without a key never touch this class: JobSql.claimQueues passes keyed jobs over.
 */
@ApplicationScoped
public class RateLimitStore {

    /**
     * The limits of one PUSH's keys ($1.., one entry per key): a new key's row is inserted; an existing one is
     * rewritten only when its limits differ (an unchanged policy takes no row lock, so PUSHes do not queue behind a
     * FETCH deciding the key). Dropping the window clears what it remembered.
     */
    static final String RECORD_POLICIES = """
            WITH p AS (
                SELECT * FROM unnest($1::text[], $2::int4[], $3::int4[], $4::int8[], $5::int4[], $6::int8[])
                     AS p(key, concurrency, rate_limit, rate_period_ms, throttle_limit, throttle_period_ms)),
            ins AS (
                INSERT INTO rate_limits (key, concurrency, rate_limit, rate_period_ms, throttle_limit,
                                         throttle_period_ms, updated_at)
                SELECT p.*, $7 FROM p ON CONFLICT (key) DO NOTHING RETURNING key)
            UPDATE rate_limits r SET concurrency = p.concurrency, rate_limit = p.rate_limit,
                   rate_period_ms = p.rate_period_ms, throttle_limit = p.throttle_limit,
                   throttle_period_ms = p.throttle_period_ms, updated_at = $7,
                   starts = CASE WHEN p.rate_limit IS NULL THEN '{}' ELSE r.starts END
            FROM p WHERE r.key = p.key AND NOT EXISTS (SELECT 1 FROM ins WHERE ins.key = p.key)
              AND (r.concurrency, r.rate_limit, r.rate_period_ms, r.throttle_limit, r.throttle_period_ms)
                  IS DISTINCT FROM (p.concurrency, p.rate_limit, p.rate_period_ms, p.throttle_limit,
                                    p.throttle_period_ms)""";

    /**
     * The keys with jobs claimable at $2 in the queues $1 (jobs_rate_limit_queue_idx: keyed jobs only), each with the
     * queue and type of one such job (for the rate_limit.exceeded event).
     */
    static final String WAITING_KEYS = """
            SELECT DISTINCT ON (rate_limit_key) rate_limit_key, queue, type FROM jobs
            WHERE rate_limit_key IS NOT NULL AND queue = ANY($1::text[])
              AND %s
            ORDER BY rate_limit_key""".formatted(JobSql.CLAIMABLE);

    /** The keyed FETCH's lock: in key order, skipping keys another FETCH holds (it decides them). */
    static final String LOCK_KEYS = """
            SELECT key, concurrency, rate_limit, rate_period_ms, throttle_limit, throttle_period_ms, starts,
                   last_started_at
            FROM rate_limits WHERE key = ANY($1::text[]) ORDER BY key FOR UPDATE SKIP LOCKED""";

    /** Active jobs per key, after the lock, in its own statement (jobs_rate_limit_claim_idx). */
    static final String ACTIVE_BY_KEY = """
            SELECT rate_limit_key, count(*) FROM jobs
            WHERE rate_limit_key = ANY($1::text[]) AND state = 'active' GROUP BY rate_limit_key""";

    static final String RECORD_STARTS = "UPDATE rate_limits SET starts = $2, last_started_at = $3 WHERE key = $1";

    /**
     * The queues holding keyed jobs, one probe of jobs_rate_limit_queue_idx per queue (a loose index scan: each step
     * takes the next queue name after the last one, in index order). A plain SELECT DISTINCT was planned as a
     * sequential scan of the live table whenever its statistics were older than a backlog (measured during W2 with
     * 30,000 waiting jobs: 19.6 ms a call, read once a second by every instance); this shape can only use the index.
     */
    static final String KEYED_QUEUES = """
            WITH RECURSIVE q AS (
                (SELECT queue FROM jobs WHERE rate_limit_key IS NOT NULL ORDER BY queue LIMIT 1)
                UNION ALL
                SELECT (SELECT j.queue FROM jobs j WHERE j.rate_limit_key IS NOT NULL AND j.queue > q.queue
                        ORDER BY j.queue LIMIT 1)
                FROM q WHERE q.queue IS NOT NULL)
            SELECT queue FROM q WHERE queue IS NOT NULL""";

    /** A partition for GET /ojs/v1/rate-limits/{key}. */
    static final String INSPECT = """
            SELECT key, concurrency, rate_limit, rate_period_ms, throttle_limit, throttle_period_ms, starts,
                   last_started_at,
                   (SELECT count(*) FROM jobs j WHERE j.rate_limit_key = r.key AND j.state = 'active') AS active,
                   (SELECT count(*) FROM jobs j WHERE j.rate_limit_key = r.key AND j.state = 'available') AS waiting
            FROM rate_limits r WHERE key = $1""";

    private final Pool pool;

    public RateLimitStore(Pool pool) {
        this.pool = pool;
    }

    /** Records the limits of the given policies (one per key; the caller keeps the newest). */
    public Uni<Void> record(Collection<RateLimitPolicy> policies, Instant now) {
        int n = policies.size();
        String[] keys = new String[n];
        Integer[] conc = new Integer[n], rate = new Integer[n], throttle = new Integer[n];
        Long[] ratePeriod = new Long[n], throttlePeriod = new Long[n];
        int i = 0;
        for (RateLimitPolicy p : policies) {
            keys[i] = p.key();
            conc[i] = p.concurrency();
            rate[i] = p.rate() == null ? null : p.rate().limit();
            ratePeriod[i] = p.rate() == null ? null : p.rate().period().toMillis();
            throttle[i] = p.throttle() == null ? null : p.throttle().limit();
            throttlePeriod[i] = p.throttle() == null ? null : p.throttle().period().toMillis();
            i++;
        }
        return pool.preparedQuery(RECORD_POLICIES).execute(Tuple.tuple(Arrays.asList(keys, conc, rate, ratePeriod,
                throttle, throttlePeriod, JobStore.odt(now)))).replaceWithVoid();
    }

    /** The queues that hold jobs with a rate limit key. */
    public Uni<Set<String>> keyedQueues() {
        return pool.query(KEYED_QUEUES).execute().map(rows -> {
            Set<String> out = new HashSet<>();
            rows.forEach(r -> out.add(r.getString(0)));
            return out;
        });
    }

    /** A key's partition; empty when no PUSH ever named the key. */
    public Uni<Optional<RateLimitRow>> find(String key) {
        return pool.preparedQuery(INSPECT).execute(Tuple.of(key)).map(rows -> {
            if (rows.rowCount() == 0) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            return Optional.of(new RateLimitRow(policy(r), state(r), r.getLong("active"), r.getLong("waiting")));
        });
    }

    /**
     * Claims up to {@code count} jobs from {@code queues} (none of them limited at queue level), keyed ones within
     * their keys' limits at {@code now}, in one transaction; the jobs of {@code limitedTenants} (tenants with a
     * max_concurrency and waiting jobs in these queues), keyed or not, within their tenants' limits too.
     */
    public Uni<List<JobRow>> claim(List<String> queues, int count, String workerId, Long visibilityMs, Instant now,
                                   RateLimitOutcomes out, Collection<String> limitedTenants) {
        return pool.withTransaction(conn -> claim(conn, JobSql.CLAIM_KEYED, queues, count, workerId, visibilityMs,
                now, out, limitedTenants));
    }

    /**
     * {@link #claim} on a connection whose transaction the caller holds ({@code sql}: CLAIM_KEYED or its limited
     * variant); what it decided per key goes to {@code out}. The keys' rows are locked first (SKIP LOCKED: never a
     * wait), then the limited tenants' rows (TenantLimitStore.allowances, in id order, as every claim locks them).
     */
    static Uni<List<JobRow>> claim(SqlConnection conn, String sql, List<String> queues, int count, String workerId,
                                   Long visibilityMs, Instant now, RateLimitOutcomes out,
                                   Collection<String> limitedTenants) {
        String[] q = queues.toArray(String[]::new);
        return conn.preparedQuery(WAITING_KEYS).execute(Tuple.of(q, JobStore.odt(now))).flatMap(waiting -> {
            Map<String, Row> where = new LinkedHashMap<>();
            waiting.forEach(r -> where.put(r.getString("rate_limit_key"), r));
            List<String> keys = new ArrayList<>(where.keySet());
            Uni<Map<String, Partition>> locked = keys.isEmpty() ? Uni.createFrom().item(Map.of())
                    : lock(conn, keys);
            // then the limited tenants' rows, in the same chain: the keys' lock runs once
            return locked.flatMap(parts -> (limitedTenants.isEmpty() ? Uni.createFrom().item(Map.<String, Integer>of())
                    : TenantLimitStore.allowances(conn, limitedTenants, count)).flatMap(tenants -> {
                Map<String, Integer> allowed = new LinkedHashMap<>();
                parts.forEach((k, p) -> {
                    int n = RateLimitRule.allowance(p.policy(), p.state(), p.active(), now, count);
                    if (n > 0) {
                        allowed.put(k, n);
                    } else {
                        Row w = where.get(k);
                        out.held(new RateLimitOutcomes.Held(k, RateLimitRule.hold(p.policy(), p.state(), p.active(),
                                now), w.getString("queue"), w.getString("type")));
                    }
                });
                Tuple t = Tuple.tuple(Arrays.asList(q, JobStore.odt(now), count, workerId, visibilityMs,
                        allowed.keySet().toArray(String[]::new), allowed.values().toArray(Integer[]::new),
                        tenants.keySet().toArray(String[]::new), tenants.values().toArray(Integer[]::new)));
                return conn.preparedQuery(sql).execute(t).flatMap(rows -> {
                    Map<UUID, String> keyOf = new HashMap<>();
                    rows.forEach(r -> {
                        String k = r.getString("rate_limit_key");
                        if (k != null) {
                            keyOf.put(r.getUUID("id"), k);
                        }
                    });
                    List<JobRow> jobs = JobStore.claimed(rows); // each row read once, in claim order
                    Map<String, Integer> started = new HashMap<>();
                    for (JobRow j : jobs) {
                        String k = keyOf.get(j.id());
                        if (k != null) {
                            started.merge(k, 1, Integer::sum);
                            out.started(k, j);
                        }
                    }
                    return recordStarts(conn, parts, started, now).replaceWith(jobs);
                });
            }));
        });
    }

    /** A locked key: its limits, its memory and its active jobs. */
    private record Partition(RateLimitPolicy policy, PartitionState state, long active) {
    }

    private static Uni<Map<String, Partition>> lock(SqlConnection conn, List<String> keys) {
        return conn.preparedQuery(LOCK_KEYS).execute(Tuple.of(keys.toArray(String[]::new))).flatMap(rows -> {
            Map<String, RateLimitPolicy> policies = new LinkedHashMap<>();
            Map<String, PartitionState> states = new HashMap<>();
            List<String> counted = new ArrayList<>();
            for (Row r : rows) {
                RateLimitPolicy p = policy(r);
                policies.put(p.key(), p);
                states.put(p.key(), state(r));
                if (p.concurrency() != null) {
                    counted.add(p.key());
                }
            }
            Uni<Map<String, Long>> active = counted.isEmpty() ? Uni.createFrom().item(Map.of())
                    : conn.preparedQuery(ACTIVE_BY_KEY).execute(Tuple.of(counted.toArray(String[]::new)))
                            .map(c -> {
                                Map<String, Long> m = new HashMap<>();
                                c.forEach(r -> m.put(r.getString(0), r.getLong(1)));
                                return m;
                            });
            return active.map(a -> {
                Map<String, Partition> out = new LinkedHashMap<>();
                policies.forEach((k, p) -> out.put(k, new Partition(p, states.get(k), a.getOrDefault(k, 0L))));
                return out;
            });
        });
    }

    private static Uni<Void> recordStarts(SqlConnection conn, Map<String, Partition> parts,
                                          Map<String, Integer> started, Instant now) {
        List<Tuple> writes = new ArrayList<>(started.size());
        started.forEach((k, n) -> {
            Partition p = parts.get(k);
            PartitionState after = RateLimitRule.after(p.policy(), p.state(), now, n);
            writes.add(Tuple.of(k, after.starts().stream().map(JobStore::odt).toArray(OffsetDateTime[]::new),
                    JobStore.odt(after.lastStart())));
        });
        return writes.isEmpty() ? Uni.createFrom().voidItem()
                : conn.preparedQuery(RECORD_STARTS).executeBatch(writes).replaceWithVoid();
    }

    private static RateLimitPolicy policy(Row r) {
        return new RateLimitPolicy(r.getString("key"), r.getInteger("concurrency"),
                window(r.getInteger("rate_limit"), r.getLong("rate_period_ms")),
                window(r.getInteger("throttle_limit"), r.getLong("throttle_period_ms")));
    }

    private static Window window(Integer limit, Long periodMs) {
        return limit == null ? null : new Window(limit, Duration.ofMillis(periodMs));
    }

    private static PartitionState state(Row r) {
        OffsetDateTime[] raw = r.getArrayOfOffsetDateTimes("starts");
        List<Instant> starts = new ArrayList<>();
        for (OffsetDateTime o : raw == null ? new OffsetDateTime[0] : raw) {
            starts.add(o.toInstant());
        }
        return new PartitionState(starts, JobRows.instant(r, "last_started_at"));
    }
}
