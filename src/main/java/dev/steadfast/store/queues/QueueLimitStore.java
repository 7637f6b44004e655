package dev.steadfast.store.queues;

import dev.steadfast.domain.limits.Allowance;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.model.JobRow;
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
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Queue rate and concurrency limits (ojs-rate-limiting.md 7.2), kept in the queues table so every instance
 * enforces the same ones. A FETCH from a limited queue is one transaction: lock the queue's row (LOCK_LIMITS),
 * count its active jobs in a new statement (so it sees what the previous lock holder committed), ask
 * {@link Allowance} how many may start, claim that many (JobSql.CLAIM_LIMITED) and record their starts in the
 * sliding window. Fetches of one limited queue therefore run one after another across all instances; fetches of
 * other queues never touch this (JobSql.claimQueues skips limited queues). The jobs of tenants with a max_concurrency,
 * which CLAIM_LIMITED leaves out, are claimed after the others within what the queue's limits still leave, under
 * the tenants' row locks too (TenantLimitStore.claimInLimitedQueue).
 */
@ApplicationScoped
public class QueueLimitStore {

    /** Sets (or, with nulls, clears) a queue's limits, creating its row when needed. */
    static final String SET_LIMITS = """
            INSERT INTO queues (name, created_at, rate_limit, rate_period_ms, concurrency) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (name) DO UPDATE SET rate_limit = $3, rate_period_ms = $4, concurrency = $5,
                   rate_starts = CASE WHEN $3::int IS NULL THEN '{}' ELSE queues.rate_starts END
            RETURNING name, rate_limit, rate_period_ms, concurrency""";

    static final String FIND_LIMITS = "SELECT name, rate_limit, rate_period_ms, concurrency FROM queues WHERE name = $1";

    static final String LIMITED_QUEUES = "SELECT name FROM queues WHERE limited";

    /** The limited FETCH's first statement: the row lock serialises fetches of this queue. */
    static final String LOCK_LIMITS = """
            SELECT rate_limit, rate_period_ms, concurrency, rate_starts FROM queues WHERE name = $1 FOR UPDATE""";

    /** Active jobs of one queue, through the partial lease index (active jobs are few: workers x fetch size). */
    static final String COUNT_ACTIVE = "SELECT count(*) FROM jobs WHERE state = 'active' AND queue = $1";

    static final String RECORD_STARTS = "UPDATE queues SET rate_starts = $2 WHERE name = $1";

    private final Pool pool;

    public QueueLimitStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<QueueLimits> set(String queue, QueueLimits limits, Instant now) {
        Long periodMs = limits.ratePeriod() == null ? null : limits.ratePeriod().toMillis();
        return pool.preparedQuery(SET_LIMITS).execute(Tuple.tuple(Arrays.asList(queue, JobStore.odt(now),
                limits.rateLimit(), periodMs, limits.concurrency()))).map(rows -> limits(rows.iterator().next()));
    }

    /** The queue's limits; empty when the queue has no row. */
    public Uni<Optional<QueueLimits>> find(String queue) {
        return pool.preparedQuery(FIND_LIMITS).execute(Tuple.of(queue)).map(rows -> rows.rowCount() == 0
                ? Optional.empty() : Optional.of(limits(rows.iterator().next())));
    }

    public Uni<Set<String>> limitedQueues() {
        return pool.query(LIMITED_QUEUES).execute().map(rows -> {
            Set<String> out = new HashSet<>();
            rows.forEach(r -> out.add(r.getString(0)));
            return out;
        });
    }

    /**
     * Claims from one limited queue as many jobs, up to {@code count}, as its limits allow at {@code now}.
     * {@code keyed}: not null when the queue holds jobs with a rate limit key; the claim is then RateLimitStore's,
     * within both the queue's allowance and each key's, and reports its keys' outcomes there.
     */
    public Uni<List<JobRow>> claim(String queue, int count, String workerId, Long visibilityMs, Instant now,
                                   RateLimitOutcomes keyed, Collection<String> limitedTenants) {
        return pool.withTransaction(conn -> conn.preparedQuery(LOCK_LIMITS).execute(Tuple.of(queue)).flatMap(rows -> {
            if (rows.rowCount() == 0) {
                return Uni.createFrom().item(List.<JobRow>of());
            }
            Row r = rows.iterator().next();
            QueueLimits limits = limits(r);
            List<Instant> starts = new ArrayList<>();
            OffsetDateTime[] raw = r.getArrayOfOffsetDateTimes("rate_starts");
            for (OffsetDateTime o : raw == null ? new OffsetDateTime[0] : raw) {
                starts.add(o.toInstant());
            }
            Uni<Long> active = limits.concurrency() == null ? Uni.createFrom().item(0L)
                    : conn.preparedQuery(COUNT_ACTIVE).execute(Tuple.of(queue)).map(c -> c.iterator().next().getLong(0));
            return active.flatMap(a -> {
                int n = limits.limited() ? Allowance.of(limits, starts, a, now, count) : count;
                if (n == 0) {
                    return Uni.createFrom().item(List.<JobRow>of());
                }
                if (keyed != null) {
                    // the keyed claim takes the limited tenants' jobs too (keyed or not), within their limits
                    return RateLimitStore.claim(conn, JobSql.CLAIM_KEYED_LIMITED, List.of(queue), n, workerId,
                            visibilityMs, now, keyed, limitedTenants).flatMap(jobs -> recordStarts(conn, queue,
                            limits, starts, now, jobs));
                }
                Uni<List<JobRow>> plain =
                        JobStore.claim(conn, JobSql.CLAIM_LIMITED, List.of(queue), n, workerId, visibilityMs, now);
                // Limited tenants' jobs, which that claim leaves out, take what the queue's limits still leave.
                Uni<List<JobRow>> claimed = limitedTenants.isEmpty() ? plain : plain.flatMap(got -> got.size() >= n
                        ? Uni.createFrom().item(got)
                        : TenantLimitStore.claimInLimitedQueue(conn, queue, limitedTenants, n - got.size(), workerId,
                                visibilityMs, now).map(more -> {
                                    List<JobRow> all = new ArrayList<>(got);
                                    all.addAll(more);
                                    return all;
                                }));
                return claimed.flatMap(jobs -> recordStarts(conn, queue, limits, starts, now, jobs));
            });
        }));
    }

    /** A rate-limited queue's starts, with the ones just made. */
    private static Uni<List<JobRow>> recordStarts(SqlConnection conn, String queue, QueueLimits limits,
                                                  List<Instant> starts, Instant now, List<JobRow> jobs) {
        return limits.rateLimit() == null || jobs.isEmpty() ? Uni.createFrom().item(jobs)
                : conn.preparedQuery(RECORD_STARTS).execute(Tuple.of(queue,
                        Allowance.after(limits, starts, now, jobs.size()).stream().map(JobStore::odt)
                                .toArray(OffsetDateTime[]::new))).replaceWith(jobs);
    }

    private static QueueLimits limits(Row r) {
        Long ms = r.getLong("rate_period_ms");
        return new QueueLimits(r.getInteger("rate_limit"), ms == null ? null : Duration.ofMillis(ms),
                r.getInteger("concurrency"));
    }
}
