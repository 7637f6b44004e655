package dev.steadfast.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A finished job (completed, cancelled, discarded, dead letter) as a Panache entity over the history
 * {@code job_history} (V18__live_jobs_and_history.sql): what job INFO and the console's job page read once a job has
 * finished, and what dead-letter management lists, counts, reads and deletes. Rows enter the history only through
 * the statements that finish a job ({@link HistorySql#finish}) and leave it by a new run ({@link
 * HistorySql#START_NEW_RUNS}), by deletion or with their day's partition, so the entity is never persisted new or
 * updated. A query that names {@code deadLetter = true} reads only the dead letters' partition.
 */
@Entity
@Table(name = "job_history")
public class FinishedJobEntity extends JobColumns {

    /** When the job finished (completed_at, cancelled_at or discarded_at by state): the partition key. */
    @Column(name = "finished_at")
    public Instant finishedAt;
}
