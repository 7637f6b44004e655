package dev.steadfast.domain.limits;

/**
 * A tenant's max_concurrency (ojs-multi-tenancy.md 8.1, MT-003): the most jobs of the tenant that may be active at
 * once, across all queues. Decided without I/O from the limit and the active jobs counted under the tenant row's
 * lock; the store claims at most {@link #allowance} of the tenant's jobs in that same transaction, so the limit
 * holds across concurrent FETCHes and instances. A limit is a positive integer; none means no limit.
 */
public final class TenantConcurrency {

    /** The largest limit accepted (the column is an integer). */
    public static final long MAX = Integer.MAX_VALUE;

    private TenantConcurrency() {
    }

    /** Whether {@code limit} may be stored as a tenant's max_concurrency (null: no limit, always valid). */
    public static boolean valid(Long limit) {
        return limit == null || (limit >= 1 && limit <= MAX);
    }

    /** Whether a tenant with {@code active} jobs running is at (or, after a limit was lowered, past) its limit. */
    public static boolean atLimit(int limit, long active) {
        return active >= limit;
    }

    /** How many more of the tenant's jobs a FETCH of {@code wanted} may start: never negative or past the limit. */
    public static int allowance(int limit, long active, int wanted) {
        return atLimit(limit, active) ? 0 : (int) Math.min(wanted, limit - active);
    }
}
