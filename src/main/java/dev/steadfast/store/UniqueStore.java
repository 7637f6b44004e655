package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.unique.UniqueHolder;
import dev.steadfast.domain.unique.UniqueKey;
import dev.steadfast.model.JobRow;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * PUSH of jobs with a unique policy (ojs-unique-jobs.md), strong in the sense of its section 8.1: one transaction
 * takes an advisory lock per uniqueness key (JobSql.LOCK_UNIQUE_KEYS), reads the jobs holding the keys, lets the
 * caller decide, and cancels (replace) and inserts before it commits. Every producer of a key, on every instance,
 * queues on the same PostgreSQL lock, so two concurrent PUSHes of one key never both see "no holder". The cost is
 * three statements and a transaction instead of one coalesced insert, paid only by jobs that carry a policy.
 * Limit: a job inserted without a policy (unique_key NULL) is never a holder.
 */
@ApplicationScoped
public class UniqueStore {

    private final Pool pool;

    public UniqueStore(Pool pool) {
        this.pool = pool;
    }

    /**
     * Runs {@code work} in one transaction holding the locks of {@code keys} (none: a plain transaction, for bulk
     * PUSHes without policies); a failure of {@code work} rolls back everything it wrote.
     */
    public <T> Uni<T> underLocks(Collection<String> keys, Function<Locked, Uni<T>> work) {
        Long[] numbers = keys.stream().map(UniqueKey::lockNumber).distinct().sorted().toArray(Long[]::new);
        return pool.withTransaction(conn -> (numbers.length == 0 ? Uni.createFrom().voidItem()
                : conn.preparedQuery(JobSql.LOCK_UNIQUE_KEYS).execute(Tuple.of((Object) numbers)).replaceWithVoid())
                .flatMap(v -> work.apply(new Locked(conn))));
    }

    /** The statements allowed while the keys are locked. */
    public static final class Locked {
        private final SqlConnection conn;

        private Locked(SqlConnection conn) {
            this.conn = conn;
        }

        /** The jobs holding each key in one of {@code states}, by key (a key nobody holds is absent). */
        public Uni<Map<String, List<UniqueHolder>>> holders(Collection<String> keys, Set<JobState> states) {
            Tuple t = Tuple.of(keys.toArray(String[]::new), states.stream().map(JobState::wire).toArray(String[]::new));
            return conn.preparedQuery(JobSql.UNIQUE_HOLDERS).execute(t).map(rows -> {
                Map<String, List<UniqueHolder>> out = new HashMap<>();
                for (Row r : rows) {
                    out.computeIfAbsent(r.getString("unique_key"), k -> new ArrayList<>()).add(new UniqueHolder(
                            r.getUUID("id"), JobState.fromWire(r.getString("state")).orElseThrow(),
                            JobRows.instant(r, "created_at"), JobRows.instant(r, "run_at")));
                }
                return out;
            });
        }

        /** Inserts the jobs; answers the ids that were new. */
        public Uni<Set<UUID>> insert(List<NewJob> jobs) {
            return jobs.isEmpty() ? Uni.createFrom().item(Set.of()) : JobStore.insert(conn, jobs);
        }

        /** Cancels the replaced jobs that are still in one of {@code fromStates}; answers them as cancelled. */
        public Uni<List<JobRow>> cancel(List<UUID> ids, String[] fromStates, Instant now) {
            if (ids.isEmpty()) {
                return Uni.createFrom().item(List.of());
            }
            return conn.preparedQuery(JobSql.CANCEL_REPLACED)
                    .execute(Tuple.of(ids.toArray(UUID[]::new), JobStore.odt(now), fromStates)).map(JobStore::rowsOf);
        }
    }
}
