package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;
import org.hibernate.annotations.DynamicUpdate;

/**
 * A live job as a Panache entity over the {@code jobs} table (V18__live_jobs_and_history.sql: available, scheduled,
 * pending, active, retryable): what job INFO, the console's job page and operator actions read and change while a
 * job is live. The hot path (claim, coalesced inserts, completions and failures) writes the same rows through
 * {@link JobSql} with the reactive SQL client; both run on the one reactive pool of the default datasource. A
 * finished job is a {@link FinishedJobEntity}.
 *
 * <p>{@code @DynamicUpdate}: a change writes only the columns it changed, never the whole envelope. Rows are created
 * on the hot path only, so the entity is never persisted new.
 */
@Entity
@Table(name = "jobs")
@DynamicUpdate
public class JobEntity extends JobColumns {

    /** RETRY_NOW: a waiting job becomes available at once, enqueued now, as when the promoter makes it due. */
    public void makeAvailable(Instant now) {
        state = JobState.AVAILABLE.wire();
        runAt = now;
        enqueuedAt = now;
    }
}
