package dev.steadfast.store.workers;

import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.model.WorkerRow;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Workers and their leases: heartbeats, the worker registry and operator directives. */
@ApplicationScoped
public class WorkerStore {

    /**
     * The SET list of a lease extension, {@link dev.steadfast.domain.Lease#extend} in SQL: $3 is now, $4 the
     * visibility timeout asked for (null: the job's own). Shared by BEAT and by a progress report (which counts as
     * a heartbeat, ojs-progress.md 6.3).
     */
    static final String LEASE_EXTENSION = """
            lease_renewed_at = $3,
                   lease_expires_at = LEAST(GREATEST(lease_expires_at,
                                                     $3 + coalesce($4, visibility_timeout_ms) * interval '1 millisecond'),
                                            coalesce(execution_deadline, 'infinity'::timestamptz))""";

    /**
     * BEAT: extends the leases this worker holds, each by its job's own visibility timeout unless the heartbeat
     * asks for another, never past the job's execution deadline, and never shorter than it already was (a
     * heartbeat with a shorter visibility timeout keeps the granted reservation): the set-based form of
     * {@link dev.steadfast.domain.Lease#extend}, min(max(current, now + visibility), deadline), which
     * HeartbeatLeaseTest checks against it. A lease that already ran out is not revived: the job belongs to the
     * lease reaper then. This one is the heartbeat without a job list ($1 null): every lease the worker holds is
     * extended; a heartbeat naming its jobs takes EXTEND_LEASES_OF. Returns each extended job's test directive (see
     * HeartbeatService), usually null.
     */
    public static final String EXTEND_LEASES = "UPDATE jobs SET " + WorkerStore.LEASE_EXTENSION + """

            WHERE state = 'active' AND lease_expires_at > $3 AND lease_owner = $2 AND $1::uuid[] IS NULL
            RETURNING id, meta->>'test_directive' AS test_directive""";

    /**
     * EXTEND_LEASES for the jobs the heartbeat names ($1), held by this worker or by nobody: one probe of jobs_pkey
     * per id. The state guard is bound ($5: JobStateMachine.sourceNames(HEARTBEAT)) and compared under the C
     * collation for the plan, as store.JobSql.COMPLETE's: written out, it let the planner read jobs_lease_idx (before V36), the
     * lease entry of every job in flight, for each heartbeat.
     */
    public static final String EXTEND_LEASES_OF = "UPDATE jobs SET " + WorkerStore.LEASE_EXTENSION + """

            WHERE id = ANY($1::uuid[]) AND state = ANY($5::text[] COLLATE "C") AND lease_expires_at > $3
              AND (lease_owner IS NULL OR lease_owner = $2)
            RETURNING id, meta->>'test_directive' AS test_directive""";

    /**
     * Jobs among $1 that are active and leased to a worker other than $2: a heartbeat naming them is refused. The
     * state bound ($3) and compared under "C" for the same reason as EXTEND_LEASES_OF's.
     */
    static final String FOREIGN_LEASES = """
            SELECT id, lease_owner FROM jobs
            WHERE id = ANY($1::uuid[]) AND state = ANY($3::text[] COLLATE "C") AND lease_owner IS NOT NULL
              AND lease_owner <> $2""";

    /** The states a heartbeat extends a lease in, bound into the statements that name jobs. */
    private static final String[] HEARTBEAT_SOURCES = JobStateMachine.sourceNames(JobStateMachine.Operation.HEARTBEAT);

    /** Records that the worker is alive; returns the directive an operator set for it. */
    static final String TOUCH_WORKER = """
            INSERT INTO workers (id, first_seen, last_seen, active_jobs, hostname, queues)
            VALUES ($1, $2, $2, $3, $4, $5)
            ON CONFLICT (id) DO UPDATE SET last_seen = $2, active_jobs = $3,
                   hostname = coalesce($4, workers.hostname), queues = coalesce($5, workers.queues)
            RETURNING directive""";

    static final String SET_DIRECTIVE = """
            INSERT INTO workers (id, first_seen, last_seen, directive, directive_set_at) VALUES ($1, $2, $2, $3, $2)
            ON CONFLICT (id) DO UPDATE SET directive = $3, directive_set_at = $2
            RETURNING id""";

    static final String LIST_WORKERS = """
            SELECT w.id, w.directive, w.first_seen, w.last_seen, w.hostname, w.queues,
                   (SELECT count(*) FROM jobs j WHERE j.state = 'active' AND j.lease_owner = w.id) AS held
            FROM workers w ORDER BY w.last_seen DESC LIMIT $1""";

    private final Pool pool;

    public WorkerStore(Pool pool) {
        this.pool = pool;
    }

    /** A lease extended by a heartbeat, and the job's test directive if it carries one. */
    public record Extended(UUID jobId, String testDirective) {
    }

    /** What a heartbeat found and did: jobs leased to others (then nothing changed), extended leases, directive. */
    public record Beat(Map<UUID, String> foreign, List<Extended> extended, String directive) {
    }

    /**
     * BEAT as one transaction: refuses (changing nothing) when a listed job is leased to another worker, else
     * extends the leases and records the worker, so a heartbeat that fails half-way leaves no lease extended.
     */
    public Uni<Beat> beat(String workerId, UUID[] jobIds, Long visibilityMs, String hostname, String[] queues,
                          Instant now) {
        return pool.withTransaction(conn -> (jobIds == null ? Uni.createFrom().item(Map.<UUID, String>of())
                : foreignLeases(conn, workerId, jobIds)).flatMap(foreign -> {
                    if (!foreign.isEmpty()) {
                        return Uni.createFrom().item(new Beat(foreign, List.of(), null));
                    }
                    return extendLeases(conn, workerId, jobIds, visibilityMs, now).flatMap(extended ->
                            touch(conn, workerId, jobIds == null ? extended.size() : jobIds.length, hostname, queues,
                                    now).map(directive -> new Beat(Map.of(), extended, directive)));
                }));
    }

    private static Uni<List<Extended>> extendLeases(SqlClient db, String workerId, UUID[] jobIds, Long visibilityMs,
                                                    Instant now) {
        Tuple t = jobIds == null ? Tuple.tuple(Arrays.asList(jobIds, workerId, JobStore.odt(now), visibilityMs))
                : Tuple.tuple(Arrays.asList(jobIds, workerId, JobStore.odt(now), visibilityMs, HEARTBEAT_SOURCES));
        return db.preparedQuery(jobIds == null ? EXTEND_LEASES : EXTEND_LEASES_OF).execute(t).map(rows -> {
            List<Extended> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                out.add(new Extended(r.getUUID("id"), r.getString("test_directive")));
            }
            return out;
        });
    }

    /** The jobs among {@code jobIds} leased to another worker, with their holder. */
    private static Uni<Map<UUID, String>> foreignLeases(SqlClient db, String workerId, UUID[] jobIds) {
        return db.preparedQuery(FOREIGN_LEASES).execute(Tuple.of(jobIds, workerId, HEARTBEAT_SOURCES)).map(rows -> {
            Map<UUID, String> out = new LinkedHashMap<>();
            for (Row r : rows) {
                out.put(r.getUUID(0), r.getString(1));
            }
            return out;
        });
    }

    private static Uni<String> touch(SqlClient db, String workerId, int activeJobs, String hostname, String[] queues,
                                     Instant now) {
        Tuple t = Tuple.tuple(Arrays.asList(workerId, JobStore.odt(now), activeJobs, hostname, queues));
        return db.preparedQuery(TOUCH_WORKER).execute(t).map(rows -> rows.iterator().next().getString(0));
    }

    public Uni<Void> setDirective(String workerId, String directive, Instant now) {
        return pool.preparedQuery(SET_DIRECTIVE).execute(Tuple.of(workerId, JobStore.odt(now), directive))
                .replaceWithVoid();
    }


    public Uni<List<WorkerRow>> list(int limit) {
        return pool.preparedQuery(LIST_WORKERS).execute(Tuple.of(limit)).map(rows -> {
            List<WorkerRow> out = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                String[] q = r.getArrayOfStrings("queues");
                out.add(new WorkerRow(r.getString("id"), r.getString("directive"), JobRows.instant(r, "first_seen"),
                        JobRows.instant(r, "last_seen"), r.getString("hostname"), q == null ? List.of() : List.of(q),
                        r.getLong("held")));
            }
            return out;
        });
    }
}
