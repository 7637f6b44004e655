package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import dev.steadfast.model.JobRow;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.Formula;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * The columns every job has, live or finished, as the Panache entities map them: {@link JobEntity} over the live
 * table {@code jobs}, {@link FinishedJobEntity} over the history {@code job_history} (V18__live_jobs_and_history.sql
 * creates it LIKE jobs, so both have these columns). JSON columns are read as JSON text and written back as jsonb,
 * so a job's args are never re-encoded on the way through the server (as {@link JobRow} keeps them). Each column
 * names its SQL type as the migrations create it ({@code jsonb}, {@code text}, and {@code tags} as {@code _text},
 * PostgreSQL's own name for text[], which is what dev mode's validator reads), so Hibernate's schema validation (run by
 * dev mode at every start and live reload) finds the entities and the tables in agreement; SchemaValidationTest runs
 * that validation against a migrated database.
 */
@MappedSuperclass
public abstract class JobColumns extends PanacheEntityBase {

    @Id
    public UUID id;
    @Column(columnDefinition = "text")
    public String type;
    @Column(columnDefinition = "text")
    public String queue;
    @Column(columnDefinition = "jsonb")
    @ColumnTransformer(read = "cast(args as text)", write = "cast(? as jsonb)")
    public String args;
    @Column(columnDefinition = "jsonb")
    @ColumnTransformer(read = "cast(meta as text)", write = "cast(? as jsonb)")
    public String meta;
    @Column(columnDefinition = "jsonb")
    @ColumnTransformer(read = "cast(extensions as text)", write = "cast(? as jsonb)")
    public String extensions;
    public int priority;
    @Column(columnDefinition = "_text")
    @JdbcTypeCode(SqlTypes.ARRAY)
    public String[] tags;
    /** The wire name of the {@link JobState}. */
    @Column(columnDefinition = "text")
    public String state;
    public int attempt;
    public int snoozes;
    @Column(name = "max_attempts")
    public int maxAttempts;
    @Column(name = "retry_policy", columnDefinition = "jsonb")
    @ColumnTransformer(read = "cast(retry_policy as text)", write = "cast(? as jsonb)")
    public String retryPolicy;
    @Column(columnDefinition = "jsonb")
    @ColumnTransformer(read = "cast(error as text)", write = "cast(? as jsonb)")
    public String error;
    /** The type of the most recent error, for dead-letter filters and statistics. */
    @Formula("error->>'type'")
    public String errorType;
    @Column(columnDefinition = "jsonb")
    @ColumnTransformer(read = "cast(errors as text)", write = "cast(? as jsonb)")
    public String errors;
    public int run;
    @Column(columnDefinition = "jsonb")
    @ColumnTransformer(read = "cast(result as text)", write = "cast(? as jsonb)")
    public String result;
    @Column(name = "timeout_ms")
    public Long timeoutMs;
    @Column(name = "visibility_timeout_ms")
    public long visibilityTimeoutMs;
    @Column(name = "run_at")
    public Instant runAt;
    @Column(name = "scheduled_at")
    public Instant scheduledAt;
    @Column(name = "expires_at")
    public Instant expiresAt;
    @Column(name = "retry_delay_ms")
    public Long retryDelayMs;
    @Column(name = "dead_letter")
    public boolean deadLetter;
    @Column(name = "created_at")
    public Instant createdAt;
    @Column(name = "enqueued_at")
    public Instant enqueuedAt;
    @Column(name = "started_at")
    public Instant startedAt;
    @Column(name = "completed_at")
    public Instant completedAt;
    @Column(name = "cancelled_at")
    public Instant cancelledAt;
    @Column(name = "discarded_at")
    public Instant discardedAt;
    @Column(name = "lease_owner", columnDefinition = "text")
    public String leaseOwner;
    @Column(name = "lease_expires_at")
    public Instant leaseExpiresAt;
    @Column(name = "execution_deadline")
    public Instant executionDeadline;
    @Column(name = "lease_renewed_at")
    public Instant leaseRenewedAt;
    /** The workflow the job is a step of (null: a plain job); set when the workflow creates it, never changed. */
    @Column(name = "workflow_id")
    public UUID workflowId;
    /** True while the job has a checkpoint (V33): FETCH then hands it to the attempt it starts. */
    @Column(name = "checkpointed")
    public boolean checkpointed;

    public JobState jobState() {
        return JobState.fromWire(state).orElseThrow();
    }

    public JobRow toRow() {
        return new JobRow(id, type, queue, args, meta, extensions, priority,
                tags == null ? List.of() : Arrays.asList(tags), jobState(), attempt, snoozes, maxAttempts,
                retryPolicy, error, errors, run, result, timeoutMs, visibilityTimeoutMs, runAt, scheduledAt,
                expiresAt, retryDelayMs, deadLetter, createdAt, enqueuedAt, startedAt, completedAt, cancelledAt,
                discardedAt, leaseOwner, leaseExpiresAt, executionDeadline, leaseRenewedAt, workflowId, checkpointed);
    }
}
