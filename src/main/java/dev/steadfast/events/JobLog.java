package dev.steadfast.events;

import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.TraceContext;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.JobRow;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;

/**
 * The job lifecycle log events of ojs-observability.md 9.2 (job enqueued, started, completed, failed, retrying,
 * discarded; plus cancelled, snoozed, lease expired and operator retries), one log line each on the category
 * {@value #CATEGORY}, at the spec's levels: INFO, WARN for a failed attempt, an expired lease or a job discarded
 * unstarted because it expired, ERROR for a job discarded after its last attempt.
 *
 * <p>The category is OFF by default (application.properties): the hot path handles thousands of jobs a second,
 * and an event that is off costs one level check, nothing else. Switched on (e.g.
 * {@code QUARKUS_LOG_CATEGORY__DEV_STEADFAST_JOB_EVENTS__LEVEL=INFO}), each line carries, beside the request's own MDC
 * ({@code request_id}, and {@code trace_id} when the request sent a traceparent), the fields of 9.1 as MDC entries
 * of that line only: {@code ojs.job.id}, {@code ojs.job.type}, {@code ojs.job.queue}, {@code ojs.job.state}, and
 * {@code trace_id} / {@code span_id} from the job's {@code meta.traceparent} when it is valid; then per event
 * {@code ojs.job.attempt}, {@code ojs.worker.id}, {@code ojs.job.duration_ms}, {@code ojs.job.next_at},
 * {@code error.code}, {@code error.type}, {@code error.message}, {@code ojs.job.dead_letter}, {@code reason}.
 * Everything comes from what the operation already holds: no event reads the database.
 */
final class JobLog {

    static final String CATEGORY = "dev.steadfast.job-events";
    private static final Logger LOG = Logger.getLogger(CATEGORY);
    private static final Level INFO = org.jboss.logmanager.Level.INFO;
    private static final Level WARN = org.jboss.logmanager.Level.WARN;
    private static final Level ERROR = org.jboss.logmanager.Level.ERROR;

    private JobLog() {
    }

    static void enqueued(JobRow row) {
        if (LOG.isLoggable(INFO)) {
            about(INFO, "job enqueued", row).log();
        }
    }

    static void started(JobRow row, String workerId) {
        if (LOG.isLoggable(INFO)) {
            about(INFO, "job started", row).attempt(row.attempt()).put("ojs.worker.id", workerId).log();
        }
    }

    /** ACK: the store answers only what the ACK statement returned (the traceparent from meta included). */
    static void completed(String id, String type, String queue, int attempt, long durationMs, String traceparent) {
        if (LOG.isLoggable(INFO)) {
            new Line(INFO, "job completed", id, type, queue, JobState.COMPLETED, traceparent).attempt(attempt)
                    .put("ojs.job.duration_ms", Long.toString(durationMs)).log();
        }
    }

    /** A failed attempt, then what became of the job: retrying, or discarded (dead-lettered or not). */
    static void failed(JobRow row, FailureReport r) {
        if (!LOG.isLoggable(ERROR)) {
            return; // the highest level of the three lines below
        }
        if (LOG.isLoggable(WARN)) {
            about(WARN, "job failed", row).attempt(row.attempt()).error(r).log();
        }
        if (row.state() == JobState.RETRYABLE || row.state() == JobState.AVAILABLE) {
            if (LOG.isLoggable(INFO)) {
                about(INFO, "job retrying", row).attempt(row.attempt())
                        .put("ojs.job.next_at", row.runAt() == null ? null : Timestamps.format(row.runAt())).log();
            }
        } else if (row.state() == JobState.DISCARDED) {
            about(ERROR, "job discarded", row).attempt(row.attempt()).error(r)
                    .put("ojs.job.dead_letter", Boolean.toString(row.deadLetter())).log();
        }
    }

    static void expired(JobRow row) {
        if (LOG.isLoggable(WARN)) {
            about(WARN, "job discarded", row).put("reason", "expired")
                    .put("ojs.job.expires_at", Timestamps.format(row.expiresAt())).log();
        }
    }

    static void leaseExpired(JobRow row, String workerId) {
        if (LOG.isLoggable(WARN)) {
            about(WARN, "job lease expired", row).attempt(row.attempt()).put("ojs.worker.id", workerId).log();
        }
    }

    static void snoozed(JobRow row) {
        if (LOG.isLoggable(INFO)) {
            about(INFO, "job snoozed", row).attempt(row.attempt())
                    .put("ojs.job.next_at", Timestamps.format(row.runAt())).log();
        }
    }

    static void cancelled(JobRow row, String by) {
        if (LOG.isLoggable(INFO)) {
            about(INFO, "job cancelled", row).put("reason", by).log();
        }
    }

    /** An operator made the job available again (console, admin API, dead letter retry). */
    static void retriedBy(JobRow row, String by) {
        if (LOG.isLoggable(INFO)) {
            about(INFO, "job retried", row).put("reason", by).put("ojs.job.run", Integer.toString(row.run())).log();
        }
    }

    private static Line about(Level level, String message, JobRow row) {
        return new Line(level, message, row.id().toString(), row.type(), row.queue(), row.state(),
                traceparentOf(row.metaJson()));
    }

    /**
     * The {@code traceparent} string of a job's meta JSON, found without decoding the whole document (a quick
     * scan: meta is the client's and may be large); null when there is none. The value is validated by the caller.
     */
    static String traceparentOf(String metaJson) {
        if (metaJson == null) {
            return null;
        }
        int key = metaJson.indexOf("\"traceparent\"");
        if (key < 0) {
            return null;
        }
        int colon = metaJson.indexOf(':', key + 13);
        int open = colon < 0 ? -1 : metaJson.indexOf('"', colon + 1);
        if (open < 0 || !metaJson.substring(colon + 1, open).isBlank()) {
            return null;
        }
        int close = metaJson.indexOf('"', open + 1);
        return close < 0 ? null : metaJson.substring(open + 1, close);
    }

    /** One log record under construction: the request's MDC, then this line's own fields. */
    private static final class Line {

        private final ExtLogRecord record;

        Line(Level level, String message, String id, String type, String queue, JobState state, String traceparent) {
            record = new ExtLogRecord(level, message, ExtLogRecord.FormatStyle.NO_FORMAT, JobLog.class.getName());
            record.setLoggerName(CATEGORY);
            record.copyMdc();
            put("ojs.job.id", id).put("ojs.job.type", type).put("ojs.job.queue", queue)
                    .put("ojs.job.state", state == null ? null : state.wire());
            TraceContext trace = traceparent == null ? null : TraceContext.parse(traceparent, null);
            if (trace != null) {
                put("trace_id", trace.traceId()).put("span_id", trace.spanId());
            }
        }

        Line put(String key, String value) {
            if (value != null) {
                record.putMdc(key, value);
            }
            return this;
        }

        Line attempt(int attempt) {
            return put("ojs.job.attempt", Integer.toString(attempt));
        }

        Line error(FailureReport r) {
            return put("error.code", r.code()).put("error.type", r.type()).put("error.message", r.message());
        }

        void log() {
            LOG.log(record);
        }
    }
}
