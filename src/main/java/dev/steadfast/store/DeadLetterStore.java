package dev.steadfast.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The dead letter queue: discarded jobs with {@code dead_letter} set. Listing is keyset-paginated on
 * (discarded_at, id), newest first, so pages stay fast however many dead letters there are. A retry starts a new
 * run of the same job (same id): attempts reset, the earlier error history kept, tagged with its run.
 */
@ApplicationScoped
public class DeadLetterStore {

    private static final String FILTER = """
             dead_letter AND ($1::text IS NULL OR queue = $1) AND ($2::text IS NULL OR type = $2)
              AND ($3::text IS NULL OR error->>'type' = $3)
              AND ($4::timestamptz IS NULL OR discarded_at >= $4) AND ($5::timestamptz IS NULL OR discarded_at < $5)""";

    static final String LIST = "SELECT " + JobRow.COLUMNS + " FROM jobs WHERE " + FILTER
            + " AND ($6::timestamptz IS NULL OR (discarded_at, id) < ($6, $7::uuid))"
            + " ORDER BY discarded_at DESC, id DESC LIMIT $8 OFFSET $9";

    static final String COUNT = "SELECT count(*) FROM jobs WHERE " + FILTER;

    static final String FIND = "SELECT " + JobRow.COLUMNS + " FROM jobs WHERE id = $1 AND dead_letter";

    /** RETRY_DEAD_LETTER: a new run of the job (JobSql.NEW_RUN_SET). */
    static final String RETRY = JobSql.NEW_RUN_SET.formatted(2) + " WHERE id = $1 AND dead_letter RETURNING "
            + JobRow.COLUMNS;

    static final String RETRY_MATCHING = JobSql.NEW_RUN_SET.formatted(6)
            + " WHERE id IN (SELECT id FROM jobs WHERE " + FILTER + " LIMIT $7 FOR UPDATE SKIP LOCKED)";

    static final String DELETE = "DELETE FROM jobs WHERE id = $1 AND dead_letter RETURNING id";

    static final String DELETE_MATCHING = "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE " + FILTER
            + " LIMIT $6 FOR UPDATE SKIP LOCKED)";

    static final String STATS = """
            SELECT count(*) AS total, min(discarded_at) AS oldest, max(discarded_at) AS newest
            FROM jobs WHERE dead_letter""";
    static final String BY_QUEUE = "SELECT queue, count(*) FROM jobs WHERE dead_letter GROUP BY queue ORDER BY 2 DESC";
    static final String BY_ERROR_TYPE = """
            SELECT coalesce(error->>'type', 'Unknown') AS t, count(*) FROM jobs WHERE dead_letter
            GROUP BY 1 ORDER BY 2 DESC LIMIT 100""";

    private final Pool pool;

    public DeadLetterStore(Pool pool) {
        this.pool = pool;
    }

    /** A page of dead letters after the (discardedAt, id) cursor, or at {@code offset}. */
    public Uni<List<JobRow>> list(DeadLetterFilter f, Instant afterAt, UUID afterId, int limit, int offset) {
        List<Object> p = params(f);
        p.addAll(Arrays.asList(JobStore.odt(afterAt), afterId, limit, offset));
        return pool.preparedQuery(LIST).execute(Tuple.tuple(p)).map(JobStore::rowsOf);
    }

    public Uni<Long> count(DeadLetterFilter f) {
        return pool.preparedQuery(COUNT).execute(Tuple.tuple(params(f))).map(rows -> rows.iterator().next().getLong(0));
    }

    public Uni<Optional<JobRow>> find(UUID id) {
        return JobStore.one(pool.preparedQuery(FIND).execute(Tuple.of(id)));
    }

    public Uni<Optional<JobRow>> retry(UUID id, Instant now) {
        return JobStore.one(pool.preparedQuery(RETRY).execute(Tuple.of(id, JobStore.odt(now))));
    }

    public Uni<Boolean> delete(UUID id) {
        return pool.preparedQuery(DELETE).execute(Tuple.of(id)).map(rows -> rows.rowCount() == 1);
    }

    /** Retries up to {@code limit} matching dead letters; returns how many (call again until short). */
    public Uni<Integer> retryMatching(DeadLetterFilter f, Instant now, int limit) {
        List<Object> p = params(f);
        p.add(JobStore.odt(now));
        p.add(limit);
        return pool.preparedQuery(RETRY_MATCHING).execute(Tuple.tuple(p)).map(rows -> rows.rowCount());
    }

    /** Deletes up to {@code limit} matching dead letters; returns how many (call again until short). */
    public Uni<Integer> deleteMatching(DeadLetterFilter f, int limit) {
        List<Object> p = params(f);
        p.add(limit);
        return pool.preparedQuery(DELETE_MATCHING).execute(Tuple.tuple(p)).map(rows -> rows.rowCount());
    }

    /** Dead letter statistics. */
    public record Stats(long total, Instant oldest, Instant newest, Map<String, Long> byQueue,
                        Map<String, Long> byErrorType) {
    }

    public Uni<Stats> stats() {
        return pool.query(STATS).execute().flatMap(s -> pool.query(BY_QUEUE).execute()
                .flatMap(q -> pool.query(BY_ERROR_TYPE).execute().map(e -> {
                    Row r = s.iterator().next();
                    return new Stats(r.getLong("total"), JobRow.instant(r, "oldest"), JobRow.instant(r, "newest"),
                            counts(q), counts(e));
                })));
    }

    private static Map<String, Long> counts(Iterable<Row> rows) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Row r : rows) {
            out.put(r.getString(0), r.getLong(1));
        }
        return out;
    }

    private static List<Object> params(DeadLetterFilter f) {
        return new ArrayList<>(Arrays.asList(f.queue(), f.type(), f.errorType(), JobStore.odt(f.since()),
                JobStore.odt(f.until())));
    }
}
