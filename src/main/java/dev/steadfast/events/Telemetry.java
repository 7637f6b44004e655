package dev.steadfast.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.TenantLabels;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every job lifecycle event, in one place: it is appended to the {@link EventLog} (GET /ojs/v1/events and the
 * server-sent event stream, in the ojs-events.md envelope) and counted in Micrometer, per queue and job type,
 * on /q/metrics:
 * <ul>
 *   <li>{@code steadfast_jobs_enqueued_total}, {@code _started_total}, {@code _completed_total},
 *       {@code _failed_total}, {@code _retry_scheduled_total}, {@code _discarded_total},
 *       {@code _dead_lettered_total}, {@code _lease_expired_total}, {@code _snoozed_total},
 *       {@code _cancelled_total}, {@code _dead_letter_retried_total}</li>
 *   <li>{@code steadfast_job_duration_seconds} (fetch to ack or fail, tag {@code outcome}) and
 *       {@code steadfast_job_wait_seconds} (available to fetched: enqueue-to-start latency)</li>
 *   <li>{@code steadfast_rate_limit_exceeded_total} by strategy (rate_limit.exceeded events)</li>
 * </ul>
 * and, when the {@code dev.steadfast.job-events} log category is on, written as a log line ({@link JobLog}).
 */
@ApplicationScoped
public class Telemetry {

    private final EventLog events;
    private final MeterRegistry meters;

    /** Per-tenant counting (null: off), and the reader of a job's tenant from its meta. */
    private final TenantLabels tenantLabels;
    private final ObjectMapper json;

    public Telemetry(EventLog events, MeterRegistry meters, EventsConfig config,
                     ObjectMapper json) {
        this.events = events;
        this.meters = meters;
        this.json = json;
        this.tenantLabels = config.tenantMetricLabels() == 0 ? null
                : new TenantLabels(config.tenantMetricLabels());
    }

    public void pushed(JobRow row, Instant now) {
        if (row.state() == JobState.SCHEDULED) {
            emit("job.scheduled", row, now, new EventData.Scheduled(row.type(), row.queue(), row.id().toString(),
                    row.priority(), Timestamps.format(row.scheduledAt())));
        } else if (row.state() == JobState.AVAILABLE) {
            emit("job.enqueued", row, now, new EventData.Enqueued(row.type(), row.queue(), row.id().toString(),
                    row.priority()));
        }
        count("enqueued", row);
        JobLog.enqueued(row);
    }

    public void started(JobRow row, String workerId, Instant now) {
        emit("job.started", row, now, new EventData.Started(row.type(), row.queue(), workerId, row.attempt()));
        count("started", row);
        JobLog.started(row, workerId);
        if (row.enqueuedAt() != null) {
            timer("steadfast.job.wait", row.queue(), row.type(), null).record(Duration.between(row.enqueuedAt(), now));
        }
    }

    public void completed(String id, String type, String queue, int attempt, Instant startedAt, Instant now,
                          String traceparent) {
        long ms = startedAt == null ? 0 : Duration.between(startedAt, now).toMillis();
        JobLog.completed(id, type, queue, attempt, ms, traceparent);
        events.emit("job.completed", now, id, new EventData.Completed(type, queue, ms, attempt));
        counter("steadfast.jobs.completed", queue, type).increment();
        timer("steadfast.job.duration", queue, type, "completed").record(Duration.ofMillis(ms));
    }

    /** A failed attempt (reported by the worker, or a lease that ran out), and what became of the job. */
    public void failed(JobRow row, FailureReport r, Instant now) {
        EventData.Failure err = new EventData.Failure(r.code(), r.type(), r.message(),
                row.state() != JobState.DISCARDED);
        Long ms = null;
        if (row.startedAt() != null) {
            ms = Duration.between(row.startedAt(), now).toMillis();
            timer("steadfast.job.duration", row.queue(), row.type(), "failed").record(Duration.ofMillis(ms));
        }
        emit("job.failed", row, now, new EventData.Failed(row.type(), row.queue(), row.attempt(), err, ms));
        count("failed", row);
        JobLog.failed(row, r);
        if (row.state() == JobState.RETRYABLE || row.state() == JobState.AVAILABLE) {
            emit("job.retrying", row, now, new EventData.Retrying(row.type(), row.queue(), row.attempt(), err, ms,
                    row.maxAttempts(), Timestamps.format(row.runAt())));
            count("retry_scheduled", row);
        } else if (row.state() == JobState.DISCARDED) {
            emit("job.discarded", row, now, new EventData.Discarded(row.type(), row.queue(), row.attempt(), err,
                    row.deadLetter()));
            count(row.deadLetter() ? "dead_lettered" : "discarded", row);
            if (row.deadLetter()) {
                emit("dead_letter.added", row, now, new EventData.DeadLettered(row.type(), row.queue(),
                        row.attempt()));
            }
        }
    }

    /**
     * The jobs a plain claim started; the ones it discarded instead because their expires_at had passed are
     * announced as the expiry reaper's are ({@link #expired}).
     */
    public List<JobRow> startedBy(JobStore.Claimed claimed, Instant now) {
        for (JobRow r : claimed.expired()) {
            expired(r, now);
        }
        return claimed.started();
    }

    /** A job discarded unstarted because its expires_at passed: job.discarded with reason "expired". */
    public void expired(JobRow row, Instant now) {
        emit("job.discarded", row, now, new EventData.Expired(row.type(), row.queue(), "expired",
                Timestamps.format(row.expiresAt()), row.attempt(), false));
        count("discarded", row);
        JobLog.expired(row);
    }

    public void leaseExpired(JobRow row, String workerId, Instant now) {
        emit("job.lease_expired", row, now, new EventData.LeaseExpired(row.type(), row.queue(), workerId,
                row.attempt()));
        count("lease_expired", row);
        JobLog.leaseExpired(row, workerId);
    }

    public void requeued(JobRow row, Instant now) {
        emit("job.snoozed", row, now, new EventData.Snoozed(row.type(), row.queue(), row.attempt(),
                Timestamps.format(row.runAt())));
        count("snoozed", row);
        JobLog.snoozed(row);
    }

    public void cancelled(JobRow row, JobState previous, String by, Instant now) {
        emit("job.cancelled", row, now, new EventData.Cancelled(row.type(), row.queue(), by, previous.wire()));
        count("cancelled", row);
        JobLog.cancelled(row, by);
    }

    /** An operator made a waiting job available now, or re-enqueued a finished one as a new run. */
    public void operatorRetried(JobRow row, JobState previous, String by, Instant now) {
        emit("job.enqueued", row, now, new EventData.Retried(row.type(), row.queue(), row.id().toString(),
                row.priority(), by, previous.wire(), row.run()));
        count("operator_retried", row);
        JobLog.retriedBy(row, by);
    }

    /** An operator deleted a job (kept as a counter only: the job is gone, the log line is the audit trail). */
    public void deleted(JobRow row) {
        count("deleted", row);
    }

    public void queuePaused(String queue, String by, Instant now) {
        events.emitQueue("queue.paused", now, new EventData.QueuePaused(queue, by));
        meters.counter("steadfast.queues.paused", "queue", queue).increment();
    }

    public void queueResumed(String queue, String by, Instant now) {
        events.emitQueue("queue.resumed", now, new EventData.QueueResumed(queue, by));
        meters.counter("steadfast.queues.resumed", "queue", queue).increment();
    }

    public void deadLetterRetried(JobRow row, Instant now) {
        emit("dead_letter.retried", row, now, new EventData.Rerun(row.type(), row.queue(), row.run()));
        count("dead_letter_retried", row);
        JobLog.retriedBy(row, "dead-letter");
    }

    public void promoted(String id, String type, String queue, int priority, Instant now) {
        events.emit("job.enqueued", now, id, new EventData.Enqueued(type, queue, id, priority));
    }

    /**
     * rate_limit.exceeded (ojs-rate-limiting 11.1): a limit holds {@code key}, whose waiting jobs include one of
     * {@code jobType} in {@code queue}; the key is the event's subject. Counted as
     * {@code steadfast_rate_limit_exceeded_total} by strategy (not by key: keys are unbounded).
     */
    public void rateLimitExceeded(String key, String strategy, long limit, long current, String queue,
                                  String jobType, Instant now) {
        events.emit("rate_limit.exceeded", now, key,
                new EventData.RateLimitExceeded(jobType, queue, key, strategy, limit, current));
        meters.counter("steadfast.rate_limit.exceeded", "strategy", strategy).increment();
    }

    /** rate_limit.released: {@code job} is the first of the held key's jobs to start again. */
    public void rateLimitReleased(String key, String strategy, JobRow job, Instant now) {
        emit("rate_limit.released", job, now, new EventData.RateLimitReleased(job.type(), job.queue(), key, strategy,
                job.id().toString()));
    }

    private void emit(String type, JobRow row, Instant now, EventData.OfJob data) {
        events.emit(type, now, row.id().toString(), data);
    }

    private void count(String what, JobRow row) {
        counter("steadfast.jobs." + what, row.queue(), row.type()).increment();
        if (tenantLabels != null) {
            tenantCounter(what, tenantLabels.of(tenantOf(row.metaJson()))).increment();
        }
    }

    /**
     * A job's tenant (meta.tenant_id, checked when the job was pushed), null without one: most jobs' meta does not
     * name one, and a text search tells so without parsing it.
     */
    private String tenantOf(String metaJson) {
        if (metaJson == null || !metaJson.contains("\"tenant_id\"")) {
            return null;
        }
        try {
            JsonNode t = json.readTree(metaJson).get("tenant_id");
            return t != null && t.isTextual() ? t.textValue() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** steadfast.tenant.jobs{tenant_id, event}: a tenant's job events (ojs-multi-tenancy MT-006), labels bounded. */
    private Counter tenantCounter(String event, String tenant) {
        return (Counter) meterCache.computeIfAbsent(new MeterKey("steadfast.tenant.jobs", tenant, event, "tenant"),
                k -> Counter.builder("steadfast.tenant.jobs").tag("tenant_id", tenant).tag("event", event)
                        .register(meters));
    }

    /** A meter's name and tags: the key under which this class keeps the meters it registered. */
    private record MeterKey(String name, String queue, String type, String outcome) {
    }

    /**
     * Meters are looked up here rather than registered on every event: building a Micrometer id and finding it in
     * the registry took a visible share of each request's CPU (docs/performance/README.md). Bounded by the number of
     * queue x type x meter combinations, like the registry itself.
     */
    private final ConcurrentHashMap<MeterKey, Object> meterCache =
            new ConcurrentHashMap<>();

    private Counter counter(String name, String queue, String type) {
        return (Counter) meterCache.computeIfAbsent(new MeterKey(name, queue, type, null),
                k -> Counter.builder(name).tag("queue", queue).tag("type", type).register(meters));
    }

    private Timer timer(String name, String queue, String type, String outcome) {
        return (Timer) meterCache.computeIfAbsent(new MeterKey(name, queue, type, outcome), k -> {
            Timer.Builder b = Timer.builder(name).tag("queue", queue).tag("type", type);
            if (outcome != null) {
                b.tag("outcome", outcome);
            }
            return b.register(meters);
        });
    }
}
