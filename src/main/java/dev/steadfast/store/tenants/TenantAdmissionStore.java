package dev.steadfast.store.tenants;

import dev.steadfast.domain.limits.EnqueueRate;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The SQL of the tenant limits a PUSH passes (ojs-multi-tenancy 8.1, 8.2; V35): which tenants have one, a tenant's
 * waiting and scheduled jobs (jobs_tenant_state_idx, only for a tenant with the limit), and the token bucket of its
 * max_enqueue_rate, taken under the tenant row's lock so the rate holds across instances. Tenants without these
 * limits cost a PUSH nothing here: the list is read once a second per instance.
 */
@ApplicationScoped
public class TenantAdmissionStore {

    /** The tenants with a limit checked at PUSH (a small table, read once a second per instance). */
    static final String ADMISSION_LIMITS = """
            SELECT id, max_queue_depth, max_concurrency, max_scheduled, max_enqueue_rate_limit,
                   max_enqueue_rate_period_ms FROM tenants
            WHERE max_queue_depth IS NOT NULL OR max_scheduled IS NOT NULL OR max_enqueue_rate_limit IS NOT NULL""";

    /**
     * A PUSH's check of a tenant's max_queue_depth: its waiting jobs (available, scheduled, retryable, pending) now,
     * through jobs_tenant_state_idx; only for tenants that have a depth limit.
     */
    static final String WAITING = """
            SELECT count(*) FROM jobs WHERE tenant_id = $1
              AND state IN ('available', 'scheduled', 'retryable', 'pending')""";

    /** A PUSH's check of a tenant's max_scheduled: its scheduled jobs now, through jobs_tenant_state_idx. */
    static final String SCHEDULED = "SELECT count(*) FROM jobs WHERE tenant_id = $1 AND state = 'scheduled'";

    /**
     * The tenant's enqueue bucket, locked: PUSHes of one rate-limited tenant take their tokens one after another,
     * on every instance, each for this read and at most one write.
     */
    static final String LOCK_ENQUEUE_TOKENS = """
            SELECT enqueue_tokens, enqueue_tokens_at FROM tenants WHERE id = $1 AND max_enqueue_rate_limit IS NOT NULL
            FOR UPDATE""";

    /** What the bucket holds after an admitted PUSH took its tokens. */
    static final String SAVE_ENQUEUE_TOKENS = "UPDATE tenants SET enqueue_tokens = $2, enqueue_tokens_at = $3 WHERE id = $1";

    private final Pool pool;

    public TenantAdmissionStore(Pool pool) {
        this.pool = pool;
    }

    /** The limits of every tenant that has one checked at PUSH, by id. */
    public Uni<Map<String, TenantStore.Limits>> admissionLimits() {
        return pool.query(ADMISSION_LIMITS).execute().map(rows -> {
            Map<String, TenantStore.Limits> out = new HashMap<>();
            for (Row r : rows) {
                out.put(r.getString("id"), TenantStore.Limits.of(r));
            }
            return Map.copyOf(out);
        });
    }

    /** A tenant's waiting jobs now (for its max_queue_depth). */
    public Uni<Long> waiting(String tenant) {
        return pool.preparedQuery(WAITING).execute(Tuple.of(tenant)).map(rows -> rows.iterator().next().getLong(0));
    }

    /** A tenant's scheduled jobs now (for its max_scheduled). */
    public Uni<Long> scheduled(String tenant) {
        return pool.preparedQuery(SCHEDULED).execute(Tuple.of(tenant)).map(rows -> rows.iterator().next().getLong(0));
    }

    /**
     * Takes tokens from {@code tenant}'s enqueue bucket in one transaction: {@code take} decides from the bucket as
     * stored (EnqueueRate.take); an admitted take is written back, a refused one writes nothing. Null when the tenant
     * has no rate (any more).
     */
    public Uni<EnqueueRate.Take> takeTokens(String tenant, Instant now, Function<EnqueueRate.Bucket, EnqueueRate.Take> take) {
        return pool.withTransaction(conn -> conn.preparedQuery(LOCK_ENQUEUE_TOKENS).execute(Tuple.of(tenant))
                .flatMap(rows -> {
                    if (rows.rowCount() == 0) {
                        return Uni.createFrom().nullItem();
                    }
                    Row r = rows.iterator().next();
                    EnqueueRate.Take t = take.apply(new EnqueueRate.Bucket(r.getDouble("enqueue_tokens"),
                            JobRows.instant(r, "enqueue_tokens_at")));
                    if (!t.admitted()) {
                        return Uni.createFrom().item(t);
                    }
                    return conn.preparedQuery(SAVE_ENQUEUE_TOKENS)
                            .execute(Tuple.of(tenant, t.bucket().tokens(), JobStore.odt(t.bucket().at())))
                            .replaceWith(t);
                }));
    }
}
