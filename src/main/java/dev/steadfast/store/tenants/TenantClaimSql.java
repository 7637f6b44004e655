package dev.steadfast.store.tenants;

import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobSql;

/**
 * The claims that know tenants (ojs-multi-tenancy.md 7 and 8.1, ojs-fair-scheduling.md 9). All take JobSql.claimQueues'
 * parameters ($1 queues in the worker's order, $2 now, $3 count, $4 worker, $5 visibility override) and end in its
 * write (JobSql.START), and all pass over jobs with a rate limit key and paused or limited queues exactly as
 * claimQueues does. Only queues known to hold claimable tenant jobs take CLAIM_FAIR; every other FETCH stays the plain
 * claimQueues, which reads tenant_id only to leave out the jobs of tenants with a max_concurrency
 * (JobSql.NOT_LIMITED_TENANT). Those tenants' jobs are started only by CLAIM_FAIR, CLAIM_OF_LIMITED_TENANT and the
 * keyed claims (JobSql.CLAIM_KEYED) run under the tenant rows' locks (TenantLimitStore), within what each tenant's
 * limit leaves.
 */
final class TenantClaimSql {

    private TenantClaimSql() {
    }

    /** A claimable job of queue {@code q} without a rate limit key, as claimQueues reads it ($2 is now). */
    private static String ready(String q) {
        return "queue = " + q + " AND " + JobSql.CLAIMABLE + " AND rate_limit_key IS NULL";
    }

    private static final String SKIP_QUEUE = "NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = %s AND (p.paused OR p.limited))";

    /**
     * The tenant named by %s has no max_concurrency (V30): a gate on the tenant, not on each job (it reads only the
     * outer query's tenant, so it runs once per tenant probe). A limited tenant's jobs are claimed only under its
     * row's lock, with its allowance (TenantLimitStore).
     */
    private static final String UNLIMITED = """
            NOT EXISTS (SELECT 1 FROM tenants x WHERE x.id = %s AND x.max_concurrency IS NOT NULL)""";

    /**
     * FETCH by a worker that names its tenant (X-OJS-Tenant): claimQueues restricted to that tenant's jobs ($6), through
     * jobs_tenant_claim_idx, so another tenant's jobs are never handed out (ojs-multi-tenancy 6.2).
     */
    static final String CLAIM_OF_TENANT = claimOfTenant(UNLIMITED.formatted("$6"));

    /**
     * CLAIM_OF_TENANT for a tenant with a max_concurrency, run under the tenant row's lock with $3 the allowance
     * its limit leaves (TenantLimitStore).
     */
    static final String CLAIM_OF_LIMITED_TENANT = claimOfTenant("true");

    private static String claimOfTenant(String gate) {
        return """
            WITH next AS (
                SELECT c.id, r.ord FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
                CROSS JOIN LATERAL (
                    SELECT id, priority, run_at FROM jobs
                    WHERE %s AND tenant_id = $6 AND %s AND %s
                    ORDER BY priority DESC, run_at, id
                    LIMIT $3
                    FOR UPDATE SKIP LOCKED) c
                ORDER BY r.ord, c.priority DESC, c.run_at, c.id
                LIMIT $3)
            """.formatted(ready("r.q"), SKIP_QUEUE.formatted("r.q"), gate) + JobSql.START + JobRows.leanColumns("j");
    }

    /**
     * FETCH of limited tenants' jobs from one rate- or concurrency-limited queue, inside QueueLimitStore's
     * transaction (under the queue row's lock, $3 what the queue's limits still leave) and under the tenants' row
     * locks: per allowed tenant ($6, allowance $7, from TenantLimitStore) its next jobs through
     * jobs_tenant_claim_idx, cut to its allowance, then the best $3 in claimQueues' order. A paused queue yields nothing.
     */
    static final String CLAIM_TENANTS_IN_LIMITED_QUEUE = """
            WITH allowed AS (SELECT * FROM unnest($6::text[], $7::int4[]) AS a(t, n)),
            cand AS (
                SELECT c.id, c.priority, c.run_at, r.ord, a.t FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
                CROSS JOIN allowed a
                CROSS JOIN LATERAL (
                    SELECT id, priority, run_at FROM jobs
                    WHERE %s AND tenant_id = a.t
                      AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND p.paused)
                    ORDER BY priority DESC, run_at, id
                    LIMIT least(a.n, $3)
                    FOR UPDATE SKIP LOCKED) c),
            capped AS (
                SELECT x.id, x.priority, x.run_at, x.ord FROM (
                    SELECT cand.*, row_number() OVER (PARTITION BY cand.t
                                                      ORDER BY cand.ord, cand.priority DESC, cand.run_at, cand.id) AS rn
                    FROM cand) x
                JOIN allowed a ON a.t = x.t WHERE x.rn <= a.n),
            next AS (SELECT id, ord FROM capped ORDER BY ord, priority DESC, run_at, id LIMIT $3)
            """.formatted(ready("r.q")) + JobSql.START + JobRows.leanColumns("j");

    /**
     * FETCH from queues holding tenant jobs: round-robin between tenants within each priority level
     * (ojs-fair-scheduling 9.3), so one tenant's backlog cannot starve another tenant's job. $6 and $7 are parallel
     * arrays of (queue, tenant) in this FETCH's turn order (TenantFairness: the tenants known to have jobs in each
     * queue, starting after the one served last), at most max($3, 64) tenants per queue.
     *
     * <ul>
     * <li>{@code picked}: each listed tenant's next jobs in claim order (at most $3 each, FOR UPDATE SKIP LOCKED,
     * through jobs_tenant_claim_idx), ranked within the tenant and priority. A tenant listed but drained costs one
     * empty probe.</li>
     * <li>{@code plain}: the head of the queue in claimQueues' order, of which jobs without a tenant are one more group,
     * taking its turn after the listed tenants: such jobs take turns with the tenants once they reach the head.</li>
     * <li>{@code picked} leaves out a tenant with a max_concurrency unless $8/$9 (parallel arrays of tenant and
     * allowance) name it: the caller (TenantLimitStore) then holds the tenant's row lock and passes what its limit
     * leaves, and {@code capped} cuts the tenant's jobs to that allowance across all its queues, in claim order.
     * Without limited tenants both arrays are empty and the probe per listed tenant is one index lookup of an empty
     * partial index.</li>
     * <li>{@code next}: earlier queues first; then higher priority; then the round (rank divided by the tenant's
     * fairness_weight, 1 without a row in tenants); then the turn order.</li>
     * </ul>
     * RETURNING adds the position (to restore this order) and the served tenant ('' for none, to move the cursor).
     * Rows locked but not chosen stay locked only until the statement commits, as in claimQueues; a FETCH of n jobs over
     * t listed tenants locks at most n·(t + 1) rows for that moment. The tenants are listed by the caller rather
     * than found here: a recursive loose index scan inside this statement cost 80 ms of planning per FETCH, and its
     * generic plan seconds (measured on a 100,000-job backlog of one tenant).
     */
    static final String CLAIM_FAIR = """
            WITH qs AS (
                SELECT r.q, r.ord FROM unnest($1::text[]) WITH ORDINALITY AS r(q, ord)
                WHERE %1$s),
            allowed AS (SELECT * FROM unnest($8::text[], $9::int4[]) AS a(t, n)),
            ten AS (SELECT g.q, g.t, g.turn, a.n AS cap
                    FROM unnest($6::text[], $7::text[]) WITH ORDINALITY AS g(q, t, turn)
                    LEFT JOIN allowed a ON a.t = g.t),
            picked AS (
                SELECT c.id, c.priority, c.run_at, qs.ord, ten.t AS k, ten.turn, ten.cap,
                       row_number() OVER (PARTITION BY ten.turn, c.priority ORDER BY c.run_at, c.id) AS rn
                FROM ten JOIN qs ON qs.q = ten.q CROSS JOIN LATERAL (
                    SELECT id, priority, run_at FROM jobs
                    WHERE %2$s AND tenant_id = ten.t AND (ten.cap IS NOT NULL OR %4$s)
                    ORDER BY priority DESC, run_at, id
                    LIMIT least($3, coalesce(ten.cap, $3))
                    FOR UPDATE SKIP LOCKED) c),
            capped AS (
                SELECT p.id, p.priority, p.run_at, p.ord, p.k, p.turn, p.rn FROM (
                    SELECT picked.*, row_number() OVER (PARTITION BY picked.k
                                                        ORDER BY picked.ord, picked.priority DESC, picked.run_at,
                                                                 picked.id) AS crn
                    FROM picked) p
                WHERE p.cap IS NULL OR p.crn <= p.cap),
            plain AS (
                SELECT c.id, c.priority, c.run_at, qs.ord, ''::text AS k, 2147483647::bigint AS turn,
                       row_number() OVER (PARTITION BY qs.ord, c.priority ORDER BY c.run_at, c.id) AS rn
                FROM qs CROSS JOIN LATERAL (
                    SELECT id, priority, run_at, tenant_id FROM jobs
                    WHERE %3$s
                    ORDER BY priority DESC, run_at, id
                    LIMIT $3
                    FOR UPDATE SKIP LOCKED) c
                WHERE c.tenant_id IS NULL),
            ranked AS (
                SELECT u.id, u.ord, u.k, row_number() OVER (
                           ORDER BY u.ord, u.priority DESC, (u.rn - 1) / coalesce(w.fairness_weight, 1), u.turn,
                                    u.run_at, u.id) AS pos
                FROM (SELECT * FROM capped UNION ALL SELECT * FROM plain) u
                LEFT JOIN tenants w ON w.id = u.k),
            next AS (SELECT id, ord, k, pos FROM ranked WHERE pos <= $3)
            """.formatted(SKIP_QUEUE.formatted("r.q"), ready("ten.q"), ready("qs.q"), UNLIMITED.formatted("ten.t"))
            + JobSql.START.replace("RETURNING next.ord,", "RETURNING next.ord, next.pos, next.k,")
            + JobRows.leanColumns("j");
}
