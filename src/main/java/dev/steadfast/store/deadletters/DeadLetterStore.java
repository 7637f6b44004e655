package dev.steadfast.store.deadletters;

import dev.steadfast.model.JobRow;
import dev.steadfast.store.FinishedJobEntity;
import dev.steadfast.store.HistorySql;
import dev.steadfast.store.JobStore;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Parameters;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.LockMode;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * The dead letter queue through {@link FinishedJobEntity}: discarded jobs with {@code deadLetter} set, in the
 * history's dead-letter partition (job_history_dead, V18), which retention never drops. Listing is
 * keyset-paginated on (discardedAt, id), newest first, so pages stay index scans of job_history_dead_idx however
 * many dead letters there are. Each query names only the filters it uses, so its plan can use the queue index.
 * A retry starts a new run of the same job (same id, {@link HistorySql#START_NEW_RUNS}): the row moves back to the
 * live table with attempts reset, the earlier error history kept, tagged with its run. A move between two tables is
 * one DELETE ... INSERT statement, which an entity change cannot express, so retries run it on the SQL client.
 *
 * <p>A single delete locks the row ({@code SELECT ... FOR UPDATE}) and checks the flag on the entity; a retry's
 * statement is guarded by the flag, so a job that left the dead letter queue meanwhile is left alone. Bulk
 * operations take a bounded batch with {@code FOR UPDATE SKIP LOCKED} (the caller loops until a batch comes back
 * short), so they never wait on a worker or on another instance doing the same.
 */
@ApplicationScoped
public class DeadLetterStore {

    private final Pool pool;

    public DeadLetterStore(Pool pool) {
        this.pool = pool;
    }

    /** A filter as an HQL condition and its parameters. */
    public record Where(String hql, Parameters params) {
    }

    public static Where where(DeadLetterFilter f) {
        StringBuilder hql = new StringBuilder("deadLetter = true");
        Parameters p = new Parameters();
        if (f.queue() != null) {
            hql.append(" and queue = :queue");
            p.and("queue", f.queue());
        }
        if (f.type() != null) {
            hql.append(" and type = :type");
            p.and("type", f.type());
        }
        if (f.errorType() != null) {
            hql.append(" and errorType = :errorType");
            p.and("errorType", f.errorType());
        }
        if (f.since() != null) {
            hql.append(" and discardedAt >= :since");
            p.and("since", f.since());
        }
        if (f.until() != null) {
            hql.append(" and discardedAt < :until");
            p.and("until", f.until());
        }
        return new Where(hql.toString(), p);
    }

    static final String NEWEST_FIRST = " order by discardedAt desc, id desc";

    /** A page of dead letters after the (discardedAt, id) cursor, or at {@code offset}. */
    public Uni<List<JobRow>> list(DeadLetterFilter f, Instant afterAt, UUID afterId, int limit, int offset) {
        Where query = listing(f, afterAt, afterId);
        return Panache.withSession(() -> FinishedJobEntity.<FinishedJobEntity>find(query.hql(), query.params())
                        .range(offset, offset + limit - 1).list())
                .map(DeadLetterStore::rows);
    }

    /**
     * The listing's query: the filter's condition, the cursor when given, newest first (RenderedSqlTest renders its
     * shapes).
     */
    static Where listing(DeadLetterFilter f, Instant afterAt, UUID afterId) {
        Where w = where(f);
        String hql = w.hql();
        Parameters p = w.params();
        if (afterAt != null) {
            hql += " and (discardedAt, id) < (:afterAt, :afterId)";
            p.and("afterAt", afterAt).and("afterId", afterId);
        }
        return new Where(hql + NEWEST_FIRST, p);
    }

    public Uni<Long> count(DeadLetterFilter f) {
        Where w = where(f);
        return Panache.withSession(() -> FinishedJobEntity.count(w.hql(), w.params()));
    }

    public Uni<Optional<JobRow>> find(UUID id) {
        return Panache.withSession(() -> FinishedJobEntity.<FinishedJobEntity>findById(id))
                .map(e -> e != null && e.deadLetter ? Optional.of(e.toRow()) : Optional.empty());
    }

    /** RETRY_DEAD_LETTER: a new run of the job; empty when it is not (or no longer) a dead letter. */
    public Uni<Optional<JobRow>> retry(UUID id, Instant now) {
        return startNewRun(pool, id, DEAD, true, now);
    }

    /** {@link #startNewRuns} for one job: the job live again, or empty when it was not in those states. */
    public static Uni<Optional<JobRow>> startNewRun(Pool pool, UUID id, String[] fromStates,
                                             boolean deadLetter, Instant now) {
        return startNewRuns(pool, new UUID[] {id}, fromStates, deadLetter, now)
                .map(rows -> rows.isEmpty() ? Optional.<JobRow>empty() : Optional.of(rows.get(0)));
    }

    private static final String[] DEAD = {"discarded"};

    /** Runs {@link HistorySql#START_NEW_RUNS}; answers the jobs now live again. */
    static Uni<List<JobRow>> startNewRuns(Pool pool, UUID[] ids, String[] fromStates,
                                          boolean deadLetter, Instant now) {
        return pool.preparedQuery(HistorySql.START_NEW_RUNS)
                .execute(Tuple.of(ids, fromStates, deadLetter, JobStore.odt(now)))
                .map(JobStore::rowsOf);
    }

    public Uni<Boolean> delete(UUID id) {
        return Panache.withTransaction(() -> FinishedJobEntity.<FinishedJobEntity>findById(id,
                        LockModeType.PESSIMISTIC_WRITE)
                .flatMap(e -> e == null || !e.deadLetter ? Uni.createFrom().item(false)
                        : e.delete().replaceWith(true)));
    }

    /** The ids of up to {@code limit} matching dead letters, locked, skipping those another transaction holds. */
    private static Uni<List<UUID>> lockedBatch(DeadLetterFilter f, int limit) {
        Where w = where(f);
        return lockedIds("where " + w.hql(), w.params().map(), limit);
    }

    /**
     * The ids of up to {@code limit} finished jobs matching an HQL condition, locked {@code FOR NO KEY UPDATE SKIP LOCKED}:
     * a bounded batch for a bulk operation that never waits on a worker, the pruner or another instance. Only the
     * ids are read: hydrating whole entities (error histories included) cost about three times the statement
     * itself. Call inside a transaction.
     */
    public static Uni<List<UUID>> lockedIds(String where, Map<String, Object> params, int limit) {
        return Panache.getSession().flatMap(s -> {
            Mutiny.SelectionQuery<UUID> q = s.createSelectionQuery("select j.id from FinishedJobEntity j " + where,
                    UUID.class);
            params.forEach(q::setParameter);
            return q.setLockMode("j", LockMode.UPGRADE_SKIPLOCKED).setMaxResults(limit).getResultList();
        });
    }

    /**
     * Retries up to {@code limit} matching dead letters; returns how many (call again until short). The batch is
     * chosen with SKIP LOCKED and then moved by {@link HistorySql#START_NEW_RUNS}, whose guard on the flag leaves
     * alone a job another operator or instance moved in between.
     */
    public Uni<Integer> retryMatching(DeadLetterFilter f, Instant now, int limit) {
        return Panache.withTransaction(() -> lockedBatch(f, limit)).flatMap(batch -> batch.isEmpty()
                ? Uni.createFrom().item(0)
                : startNewRuns(pool, batch.toArray(UUID[]::new), DEAD, true, now).map(List::size));
    }

    /** Deletes up to {@code limit} matching dead letters; returns how many (call again until short). */
    public Uni<Integer> deleteMatching(DeadLetterFilter f, int limit) {
        return Panache.withTransaction(() -> lockedBatch(f, limit).flatMap(batch -> {
            if (batch.isEmpty()) {
                return Uni.createFrom().item(0);
            }
            return FinishedJobEntity.delete("id in ?1 and deadLetter = true", batch).map(Long::intValue);
        }));
    }

    /** Dead letter statistics. */
    public record Stats(long total, Instant oldest, Instant newest, Map<String, Long> byQueue,
                        Map<String, Long> byErrorType) {
    }

    static final String STATS = "select count(*), min(discardedAt), max(discardedAt) from FinishedJobEntity where deadLetter = true";
    static final String BY_QUEUE = "select queue, count(*) from FinishedJobEntity where deadLetter = true"
            + " group by queue order by count(*) desc";
    static final String BY_ERROR_TYPE = "select coalesce(errorType, 'Unknown'), count(*) from FinishedJobEntity"
            + " where deadLetter = true group by coalesce(errorType, 'Unknown') order by count(*) desc";

    public Uni<Stats> stats() {
        return Panache.withSession(() -> Panache.getSession().flatMap(s ->
                s.createSelectionQuery(STATS, Object[].class).getSingleResult().flatMap(total ->
                        s.createSelectionQuery(BY_QUEUE, Object[].class).getResultList().flatMap(queues ->
                                s.createSelectionQuery(BY_ERROR_TYPE, Object[].class).setMaxResults(100)
                                        .getResultList().map(types -> new Stats(((Number) total[0]).longValue(),
                                                (Instant) total[1], (Instant) total[2], counts(queues),
                                                counts(types)))))));
    }

    private static Map<String, Long> counts(List<Object[]> rows) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Object[] r : rows) {
            out.put((String) r[0], ((Number) r[1]).longValue());
        }
        return out;
    }

    private static List<JobRow> rows(List<FinishedJobEntity> entities) {
        List<JobRow> out = new ArrayList<>(entities.size());
        for (FinishedJobEntity e : entities) {
            out.add(e.toRow());
        }
        return out;
    }
}
