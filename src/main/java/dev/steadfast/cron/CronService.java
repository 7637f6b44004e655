package dev.steadfast.cron;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.domain.cron.CronDecision;
import dev.steadfast.domain.cron.CronRules;
import dev.steadfast.domain.cron.FireTimes;
import dev.steadfast.domain.cron.MissedOccurrences;
import dev.steadfast.domain.cron.OverlapPolicy;
import dev.steadfast.domain.cron.QueuedRuns;
import dev.steadfast.events.EventData;
import dev.steadfast.events.EventLog;
import dev.steadfast.events.Telemetry;
import dev.steadfast.http.Timestamps;
import dev.steadfast.jobs.PushService;
import dev.steadfast.maintenance.Batches;
import dev.steadfast.model.CronRow;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.NewJob;
import dev.steadfast.store.cron.CronStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Cron schedules (ojs-cron.md, HTTP binding section 13): register, list, get, pause, resume, unregister, and fire
 * what is due. Expressions are evaluated by {@link CronExpressions}; each occurrence's fate is decided in the
 * domain ({@link CronDecision}) and carried out by {@link CronStore#fireDue} in one transaction, exactly once
 * across instances. Runs are ordinary jobs, built from the template by the same validation as a PUSH. Under the
 * {@code enqueue} overlap policy an occurrence behind an unfinished run is held (pending) and released in turn
 * by {@link #releaseHeld} ({@link QueuedRuns}); more than two held occurrences of one schedule are logged at WARN
 * on each firing (ojs-cron.md 6.1) and counted in the schedule's {@code queued_occurrences}.
 */
@ApplicationScoped
public class CronService {

    private static final Logger LOG = Logger.getLogger(CronService.class);

    private final CronStore store;
    private final PushService jobs;
    private final Clock clock;
    private final ObjectMapper json;
    private final CronConfig config;
    private final EventLog events;
    private final Telemetry telemetry;
    private final MissedOccurrences missed;

    public CronService(CronStore store, PushService jobs, Clock clock, ObjectMapper json, CronConfig config,
                       EventLog events, Telemetry telemetry) {
        this.store = store;
        this.jobs = jobs;
        this.clock = clock;
        this.json = json;
        this.config = config;
        this.events = events;
        this.telemetry = telemetry;
        this.missed = config.missed();
    }

    /** Registers a schedule; 409 duplicate when the name is taken (binding 13.2), 400 naming a bad field. */
    public Uni<CronRow> register(CronCommand c) {
        Instant now = OperationTime.of(clock);
        String name = CronRules.checkName(c.name());
        String tz = c.timezone() == null ? CronRules.DEFAULT_TIMEZONE : c.timezone();
        ZoneId zone = CronRules.checkTimezone(tz);
        OverlapPolicy overlap = CronRules.checkOverlap(c.overlap());
        if (c.expression().length() > CronRules.EXPRESSION_MAX) {
            throw OjsException.invalidField("cron", "The cron expression is longer than " + CronRules.EXPRESSION_MAX
                    + " characters.", "at most " + CronRules.EXPRESSION_MAX + " characters", c.expression().length()
                    + " characters");
        }
        FireTimes times = CronExpressions.parse("cron", c.expression(), zone);
        String template = CronTemplate.write(json, c.template());
        // The template must make a valid job now, not fail at every occurrence later.
        jobs.prepare(CronTemplate.occurrence(json, template, name, now, visibilityMs(), false), now);
        boolean enabled = c.enabled() == null || c.enabled();
        Instant next = enabled ? times.nextAfter(now).orElse(null) : null;
        return store.insert(name, c.expression().trim(), tz, overlap.wire(), enabled, c.description(), template, next,
                now).flatMap(inserted -> {
                    if (!inserted) {
                        throw new OjsException(ErrorCode.DUPLICATE, "A cron job named '" + name + "' already exists;"
                                + " delete it first to register it again.", Map.of("name", name));
                    }
                    return get(name);
                });
    }

    public Uni<CronRow> get(String name) {
        return store.find(name).map(o -> o.orElseThrow(() -> OjsException.notFound("cron_job", name)));
    }

    public Uni<CronStore.Page> list(int limit, int offset) {
        return store.list(limit, offset);
    }

    /**
     * Unregisters; answers the schedule as it was. Jobs already enqueued are not affected, except that occurrences
     * held under the enqueue policy are released at once: nothing would release them later.
     */
    public Uni<CronRow> delete(String name) {
        return get(name).flatMap(row -> store.delete(name, OperationTime.of(clock)).map(deleted -> {
            if (!deleted) {
                throw OjsException.notFound("cron_job", name);
            }
            return row;
        }));
    }

    /** Pauses (no occurrence fires, next_run_at is null) or resumes (from the first occurrence after now). */
    public Uni<CronRow> setEnabled(String name, boolean enabled) {
        Instant now = OperationTime.of(clock);
        return get(name).flatMap(row -> {
            Instant next = enabled ? fireTimes(row.expression(), row.timezone()).nextAfter(now).orElse(null) : null;
            return store.setEnabled(name, enabled && next != null, next);
        }).flatMap(v -> get(name));
    }

    /** The occurrences of a stored schedule (validated at registration). */
    public static FireTimes fireTimes(String expression, String timezone) {
        return CronExpressions.parse("cron", expression, ZoneId.of(timezone));
    }

    /** Fires every occurrence due at {@code now}, in batches; answers how many occurrences were acted on. */
    public Uni<Integer> fireDue(Instant now) {
        int batch = 100;
        return Batches.untilShort(() -> store.fireDue(now, batch, due -> decide(due, now))
                .map(fired -> report(fired, now)), batch);
    }

    /**
     * The enqueue policy's turn-taking: releases, for each schedule whose run before its earliest held occurrence
     * has finished, that occurrence (pending -> available, made due at {@code now}); answers how many. One pass of
     * at most 1,000 schedules, not a loop until a batch comes back short: schedules whose run is still going stay
     * in the set, and the next tick looks again.
     */
    public Uni<Integer> releaseHeld(Instant now) {
        return store.releaseHeld(now, 1_000, h -> QueuedRuns.mayRelease(h.beforeState()));
    }

    private CronStore.Firing decide(CronStore.Due due, Instant now) {
        FireTimes times = fireTimes(due.expression(), due.timezone());
        String previous = QueuedRuns.unfinished(due.lastJobState()) ? due.lastJobState() : null;
        CronDecision d = CronDecision.decide(due.fireAt(), times, now, OverlapPolicy.of(due.overlapPolicy()),
                previous, due.held(), config.misfireGrace(), missed);
        NewJob job = null;
        String reason = d.skipReason();
        if (d.enqueue()) {
            try {
                job = jobs.prepare(CronTemplate.occurrence(json, due.templateJson(), due.name(), due.fireAt(),
                        visibilityMs(), d.hold()), now);
            } catch (OjsException e) { // configuration changed since registration (e.g. the retry range)
                reason = "invalid template: " + e.getMessage();
            }
        }
        return new CronStore.Firing(due, job, job != null && d.hold(), d.cancelPrevious() ? due.lastJobId() : null,
                d.nextFireAt(), job == null ? reason : null, job != null ? d.queued() : due.held());
    }

    private int report(List<CronStore.Fired> fired, Instant now) {
        for (CronStore.Fired f : fired) {
            if (!f.recorded()) {
                continue;
            }
            CronStore.Firing g = f.firing();
            String name = g.due().name();
            String scheduled = Timestamps.format(g.due().fireAt());
            if (g.job() != null) {
                JobRow row = JobRows.inserted(g.job());
                telemetry.pushed(row, now);
                if (QueuedRuns.warns(g.queued())) {
                    LOG.warn(QueuedRuns.warning(name, g.queued()));
                }
                events.emit("cron.triggered", now, row.id().toString(),
                        new EventData.CronTriggered(row.type(), row.queue(), name, scheduled, row.id().toString(),
                                g.held() ? Boolean.TRUE : null, g.held() ? g.queued() : null, null));
            } else {
                events.emitQueue("cron.skipped", now,
                        new EventData.CronSkipped("cron", name, scheduled, g.skipReason()));
            }
        }
        return fired.size();
    }

    /** What a run made by hand changed: the one job it enqueued. */
    public record RunNow(String name, UUID jobId, String queue, Instant at) {
    }

    /**
     * Enqueues one occurrence of the schedule now, built from its template by the same code as a scheduled
     * occurrence ({@code cron_triggered_at} is now), whatever its overlap policy and even while it is paused: an
     * operator asked for it. Recorded as an occurrence (reason {@code run now by <who>}) and counted as the
     * schedule's last run; its next scheduled occurrence is unchanged. 404 for an unknown schedule; 409 when an
     * occurrence was recorded at this very instant.
     */
    public Uni<RunNow> runNow(String name, String by) {
        Instant now = OperationTime.of(clock);
        return get(name).flatMap(row -> {
            NewJob job = jobs.prepare(CronTemplate.occurrence(json, row.templateJson(), name, now, visibilityMs(),
                    false), now);
            return store.runNow(name, job, "run now by " + by, now).map(done -> {
                if (!done) {
                    throw new OjsException(ErrorCode.CONFLICT, "Cron '" + name + "' has an occurrence recorded at"
                            + " this instant already, or was deleted; try again.", Map.of("name", name));
                }
                JobRow inserted = JobRows.inserted(job);
                telemetry.pushed(inserted, now);
                events.emit("cron.triggered", now, inserted.id().toString(),
                        new EventData.CronTriggered(inserted.type(), inserted.queue(), name, Timestamps.format(now),
                                inserted.id().toString(), null, null, by));
                LOG.infof("cron %s run now by %s: job %s", name, by, inserted.id());
                return new RunNow(name, inserted.id(), inserted.queue(), now);
            });
        });
    }

    /** The schedule's latest occurrences, newest first (the console's recent runs). */
    public Uni<List<CronStore.Run>> recentRuns(String name, int limit) {
        return store.recentRuns(name, limit);
    }

    /** The schedule's expression in words (cron-utils' descriptor). */
    public static String describe(String expression) {
        return CronExpressions.describe("cron", expression);
    }

    private long visibilityMs() {
        return config.defaultVisibilityTimeout().toMillis();
    }

}
