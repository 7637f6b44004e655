package dev.steadfast.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The data of each lifecycle event this server emits (ojs-events.md 3 and the extensions' event sections), one record
 * per shape, its fields in the order the event carries them (job events open with {@code job_type} and {@code queue}).
 * A field the event carries only sometimes is left out when null; every other field is always present, null or not.
 * Events heard from another instance ({@link EventSharing}) keep the data as it arrived, a map of the same fields.
 */
public final class EventData {

    private EventData() {
    }

    /** The data of an event about a job: it names the job's type and queue (EventLog files the event under both). */
    public interface OfJob {
        String jobType();

        String queue();
    }

    /** The data of an event about a queue: it names the queue, the event's subject. */
    public interface OfQueue {
        String queue();
    }

    /** job.enqueued: a job pushed (or made available again by the promoter) that a worker may fetch now. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Enqueued(String jobType, String queue, String jobId, int priority) implements OfJob {
    }

    /** job.scheduled: a job pushed to run at {@code scheduled_at}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Scheduled(String jobType, String queue, String jobId, int priority, String scheduledAt) implements OfJob {
    }

    /** job.enqueued after an operator's retry: who made it available and from which state, and the run it starts. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Retried(String jobType, String queue, String jobId, int priority, String retriedBy,
                          String previousState, int run) implements OfJob {
    }

    /** job.started: a worker fetched the job. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Started(String jobType, String queue, String workerId, int attempt) implements OfJob {
    }

    /** job.completed. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Completed(String jobType, String queue, long durationMs, int attempt) implements OfJob {
    }

    /** The error of job.failed, job.retrying ({@code error}) and job.discarded ({@code last_error}). */
    @RegisterForReflection
    public record Failure(String code, String type, String message, boolean retryable) {
    }

    /** job.failed: an attempt failed; {@code duration_ms} when the attempt had started. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Failed(String jobType, String queue, int attempt, Failure error,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Long durationMs) implements OfJob {
    }

    /** job.retrying: job.failed's fields, then the attempts allowed and when the next one may run. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Retrying(String jobType, String queue, int attempt, Failure error,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Long durationMs, int maxAttempts,
                          String nextRetryAt) implements OfJob {
    }

    /** job.discarded after its last attempt failed (or a non-retryable error): dead-lettered or not. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Discarded(String jobType, String queue, int totalAttempts, Failure lastError, boolean deadLetter) implements OfJob {
    }

    /** job.discarded of a job whose expires_at passed before it started. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Expired(String jobType, String queue, String reason, String expiresAt, int totalAttempts,
                          boolean deadLetter) implements OfJob {
    }

    /** dead_letter.added. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record DeadLettered(String jobType, String queue, int totalAttempts) implements OfJob {
    }

    /** dead_letter.retried: the run the job starts. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Rerun(String jobType, String queue, int run) implements OfJob {
    }

    /** job.lease_expired: the worker that held the lease and its attempt. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record LeaseExpired(String jobType, String queue, String workerId, int attempt) implements OfJob {
    }

    /** job.snoozed: the worker asked for the job again at {@code run_at}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Snoozed(String jobType, String queue, int attempt, String runAt) implements OfJob {
    }

    /** job.cancelled. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record Cancelled(String jobType, String queue, String cancelledBy, String previousState) implements OfJob {
    }

    /** rate_limit.exceeded (ojs-rate-limiting 11.1). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record RateLimitExceeded(String jobType, String queue, String key, String strategy, long limit,
                                    long current) implements OfJob {
    }

    /** rate_limit.released: {@code job_id} is the first of the held key's jobs to start again. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record RateLimitReleased(String jobType, String queue, String key, String strategy, String jobId) implements OfJob {
    }

    /** queue.paused. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record QueuePaused(String queue, String pausedBy) implements OfQueue {
    }

    /** queue.resumed. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record QueueResumed(String queue, String resumedBy) implements OfQueue {
    }

    /**
     * cron.triggered: a schedule enqueued its job; {@code held} and {@code queued_occurrences} when an earlier run is
     * still waiting (overlap policy enqueue), {@code run_now_by} when an operator fired it by hand.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record CronTriggered(String jobType, String queue, String cronName, String scheduledTime, String jobId,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Boolean held,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Integer queuedOccurrences,
                                @JsonInclude(JsonInclude.Include.NON_NULL) String runNowBy) implements OfJob {
    }

    /** cron.skipped: an occurrence the overlap policy skipped (the subject and queue are "cron"). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record CronSkipped(String queue, String cronName, String scheduledTime, String reason) implements OfQueue {
    }

    /** webhook.delivered: the receiver answered 2xx ({@code status_code} absent only without an answer). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record WebhookDelivered(String deliveryId, String subscriptionId, String eventType, int attempt,
                                   @JsonInclude(JsonInclude.Include.NON_NULL) Integer statusCode, long durationMs) {
    }

    /**
     * webhook.failed (retried at {@code next_attempt_at}) and webhook.dead (no further attempt): the answer's status
     * when there was one, and the error.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record WebhookFailed(String deliveryId, String subscriptionId, String eventType, int attempt,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Integer statusCode, long durationMs,
                                String error, @JsonInclude(JsonInclude.Include.NON_NULL) String nextAttemptAt) {
    }

    /** webhook.subscription.created. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record SubscriptionCreated(String subscriptionId, String url) {
    }

    /** webhook.subscription.deleted. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record SubscriptionDeleted(String subscriptionId) {
    }

    /** webhook.test: the ping POST /webhooks/subscriptions/{id}/test sends (never stored). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @RegisterForReflection
    public record WebhookTest(String subscriptionId, String message) {
    }
}
