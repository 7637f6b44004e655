package dev.steadfast.store.workers;

import dev.steadfast.domain.WorkerState;
import dev.steadfast.model.WorkerReport;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/** The state workers report about themselves ({@code workers.state}, V13__worker_state.sql). */
@ApplicationScoped
public class WorkerStateStore {

    /** REPORT_WORKER_STATE: an upsert, so a worker's first heartbeat may already say it is draining. */
    static final String REPORT = """
            INSERT INTO workers (id, first_seen, last_seen, state, state_at) VALUES ($1, $2, $2, $3, $2)
            ON CONFLICT (id) DO UPDATE SET state = $3, state_at = $2, last_seen = $2""";

    /**
     * RECORD_SEEN: a worker that fetched is known, and seen now, without a heartbeat (the console's Workers page and
     * the admin API list it). Written at most once per worker per interval per instance (work.Draining), not per
     * FETCH; a later last_seen (from a heartbeat elsewhere) is kept.
     */
    static final String SEEN = """
            INSERT INTO workers (id, first_seen, last_seen) VALUES ($1, $2, $2)
            ON CONFLICT (id) DO UPDATE SET last_seen = GREATEST(workers.last_seen, $2)""";

    static final String FIND = """
            SELECT state, state_at, directive, last_seen, active_jobs, hostname FROM workers WHERE id = $1""";

    private final Pool pool;

    public WorkerStateStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> report(String workerId, WorkerState state, Instant now) {
        return pool.preparedQuery(REPORT).execute(Tuple.of(workerId, JobStore.odt(now), state.wire()))
                .replaceWithVoid();
    }

    /** Records that {@code workerId} fetched at {@code now}. */
    public Uni<Void> seen(String workerId, Instant now) {
        return pool.preparedQuery(SEEN).execute(Tuple.of(workerId, JobStore.odt(now))).replaceWithVoid();
    }


    public Uni<Optional<WorkerReport>> find(String workerId) {
        return pool.preparedQuery(FIND).execute(Tuple.of(workerId)).map(rows -> {
            if (rows.rowCount() == 0) {
                return Optional.empty();
            }
            Row r = rows.iterator().next();
            return Optional.of(new WorkerReport(WorkerState.fromWire(r.getString("state")).orElseThrow(),
                    JobRows.instant(r, "state_at"), r.getString("directive"), JobRows.instant(r, "last_seen"),
                    r.getInteger("active_jobs"), r.getString("hostname")));
        });
    }
}
