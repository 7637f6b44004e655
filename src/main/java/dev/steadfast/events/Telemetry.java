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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("job_id", row.id().toString());
        data.put("priority", row.priority());
        if (row.state() == JobState.SCHEDULED) {
            data.put("scheduled_at", Timestamps.format(row.scheduledAt()));
            emit("job.scheduled", row, now, data);
        } else if (row.state() == JobState.AVAILABLE) {
            emit("job.enqueued", row, now, data);
        }
        count("enqueued", row);
        JobLog.enqueued(row);
    }

    public void started(JobRow row, String workerId, Instant now) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("worker_id", workerId);
        data.put("attempt", row.attempt());
        emit("job.started", row, now, data);
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
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("duration_ms", ms);
        data.put("attempt", attempt);
        events.emit("job.completed", now, id, type, queue, data);
        counter("steadfast.jobs.completed", queue, type).increment();
        timer("steadfast.job.duration", queue, type, "completed").record(Duration.ofMillis(ms));
    }

    /** A failed attempt (reported by the worker, or a lease that ran out), and what became of the job. */
    public void failed(JobRow row, FailureReport r, Instant now) {
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("code", r.code());
        err.put("type", r.type());
        err.put("message", r.message());
        err.put("retryable", row.state() != JobState.DISCARDED);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("attempt", row.attempt());
        data.put("error", err);
        if (row.startedAt() != null) {
            long ms = Duration.between(row.startedAt(), now).toMillis();
            data.put("duration_ms", ms);
            timer("steadfast.job.duration", row.queue(), row.type(), "failed").record(Duration.ofMillis(ms));
        }
        emit("job.failed", row, now, data);
        count("failed", row);
        JobLog.failed(row, r);
        if (row.state() == JobState.RETRYABLE || row.state() == JobState.AVAILABLE) {
            Map<String, Object> retry = new LinkedHashMap<>(data);
            retry.put("max_attempts", row.maxAttempts());
            retry.put("next_retry_at", Timestamps.format(row.runAt()));
            emit("job.retrying", row, now, retry);
            count("retry_scheduled", row);
        } else if (row.state() == JobState.DISCARDED) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("total_attempts", row.attempt());
            d.put("last_error", err);
            d.put("dead_letter", row.deadLetter());
            emit("job.discarded", row, now, d);
            count(row.deadLetter() ? "dead_lettered" : "discarded", row);
            if (row.deadLetter()) {
                emit("dead_letter.added", row, now, Map.of("total_attempts", row.attempt()));
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
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("reason", "expired");
        d.put("expires_at", Timestamps.format(row.expiresAt()));
        d.put("total_attempts", row.attempt());
        d.put("dead_letter", false);
        emit("job.discarded", row, now, d);
        count("discarded", row);
        JobLog.expired(row);
    }

    public void leaseExpired(JobRow row, String workerId, Instant now) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("worker_id", workerId);
        data.put("attempt", row.attempt());
        emit("job.lease_expired", row, now, data);
        count("lease_expired", row);
        JobLog.leaseExpired(row, workerId);
    }

    public void requeued(JobRow row, Instant now) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("attempt", row.attempt());
        data.put("run_at", Timestamps.format(row.runAt()));
        emit("job.snoozed", row, now, data);
        count("snoozed", row);
        JobLog.snoozed(row);
    }

    public void cancelled(JobRow row, JobState previous, String by, Instant now) {
        emit("job.cancelled", row, now, Map.of("cancelled_by", by, "previous_state", previous.wire()));
        count("cancelled", row);
        JobLog.cancelled(row, by);
    }

    /** An operator made a waiting job available now, or re-enqueued a finished one as a new run. */
    public void operatorRetried(JobRow row, JobState previous, String by, Instant now) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("job_id", row.id().toString());
        data.put("priority", row.priority());
        data.put("retried_by", by);
        data.put("previous_state", previous.wire());
        data.put("run", row.run());
        emit("job.enqueued", row, now, data);
        count("operator_retried", row);
        JobLog.retriedBy(row, by);
    }

    /** An operator deleted a job (kept as a counter only: the job is gone, the log line is the audit trail). */
    public void deleted(JobRow row) {
        count("deleted", row);
    }

    public void queuePaused(String queue, String by, Instant now) {
        events.emitQueue("queue.paused", now, queue, Map.of("paused_by", by));
        meters.counter("steadfast.queues.paused", "queue", queue).increment();
    }

    public void queueResumed(String queue, String by, Instant now) {
        events.emitQueue("queue.resumed", now, queue, Map.of("resumed_by", by));
        meters.counter("steadfast.queues.resumed", "queue", queue).increment();
    }

    public void deadLetterRetried(JobRow row, Instant now) {
        emit("dead_letter.retried", row, now, Map.of("run", row.run()));
        count("dead_letter_retried", row);
        JobLog.retriedBy(row, "dead-letter");
    }

    public void promoted(String id, String type, String queue, int priority, Instant now) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("job_id", id);
        data.put("priority", priority);
        events.emit("job.enqueued", now, id, type, queue, data);
    }

    /**
     * rate_limit.exceeded (ojs-rate-limiting 11.1): a limit holds {@code key}, whose waiting jobs include one of
     * {@code jobType} in {@code queue}; the key is the event's subject. Counted as
     * {@code steadfast_rate_limit_exceeded_total} by strategy (not by key: keys are unbounded).
     */
    public void rateLimitExceeded(String key, String strategy, long limit, long current, String queue,
                                  String jobType, Instant now) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("key", key);
        data.put("strategy", strategy);
        data.put("limit", limit);
        data.put("current", current);
        events.emit("rate_limit.exceeded", now, key, jobType, queue, data);
        meters.counter("steadfast.rate_limit.exceeded", "strategy", strategy).increment();
    }

    /** rate_limit.released: {@code job} is the first of the held key's jobs to start again. */
    public void rateLimitReleased(String key, String strategy, JobRow job, Instant now) {
        emit("rate_limit.released", job, now, Map.of("key", key, "strategy", strategy, "job_id", job.id().toString()));
    }

    private void emit(String type, JobRow row, Instant now, Map<String, Object> data) {
        events.emit(type, now, row.id().toString(), row.type(), row.queue(), data);
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
