package dev.steadfast.work;

import dev.steadfast.domain.FailureReport;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.SweepFloor;
import dev.steadfast.domain.retry.Failure;
import dev.steadfast.events.BucketTimers;
import dev.steadfast.events.Telemetry;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.maintenance.Batches;
import dev.steadfast.maintenance.MaintenanceConfig;
import dev.steadfast.maintenance.Throttle;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.Attempt;
import dev.steadfast.store.FailureWrite;
import dev.steadfast.store.maintenance.MaintenanceStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Lease expiry (RET-12, ojs-worker-protocol.md 5.5): an active job whose lease ran out without an ack, a fail
 * or a heartbeat is a failed attempt. It gets an error of type {@code visibility_timeout} (or {@code timeout}
 * when it ran past its execution deadline, timeout_ms) in its history and follows its retry policy: available
 * again, retryable after the backoff, or discarded / dead-lettered when attempts are exhausted. The backoff is
 * measured from the worker's last sign of life, so a crash already "waited out" part of it.
 *
 * <p>Run by the scheduled {@code LeaseReaper}, at most every steadfast.fetch.reap-interval beside a FETCH's
 * claim (the FETCH does not wait for it), so an expired job is claimable again within that interval instead of
 * waiting for the scheduler's one-second tick, and by a timer armed when a FETCH hands out a lease ({@link
 * #expiresAt}), so a job whose worker vanished shows as failed within about {@value #TIMER_BUCKET_MS} ms of its
 * lease end even when no FETCH comes. Jobs are locked
 * with SKIP LOCKED, so instances never decide the same job, and a late ack from the old worker finds the job no
 * longer active (or leased to someone else) and is refused.
 */
@ApplicationScoped
public class LeaseExpiry {

    private final MaintenanceStore store;
    private final AttemptOutcomes outcomes;
    private final Telemetry telemetry;
    private final FetchConfig fetchConfig;
    private final MaintenanceConfig maintenanceConfig;
    private final HeldAttempts held;
    private final WorkSignal signal;
    private final Throttle fromFetch;
    private final Clock clock;
    /** Where this instance's next reap starts reading the lease index. */
    private final SweepFloor floor;
    /** Lease-end timers pending on this instance, one per {@value #TIMER_BUCKET_MS} ms bucket. */
    private final BucketTimers timers;

    /** Lease ends this close together share one timer (the reap that follows handles them all). */
    static final long TIMER_BUCKET_MS = 100;
    /** The timer fires this long after the bucket's end, so the rows are expired by the database's clock too. */
    static final long TIMER_MARGIN_MS = 20;
    /** Leases ending later than this are left to the scheduled reaper (and to FETCH). */
    static final Duration TIMER_HORIZON = Duration.ofMinutes(10);
    /** At most this many lease-end timers pending per instance (6,000 covers the horizon in 100 ms buckets). */
    static final int MAX_TIMERS = 6_000;

    public LeaseExpiry(MaintenanceStore store, AttemptOutcomes outcomes, Telemetry telemetry, FetchConfig fetchConfig,
                       MaintenanceConfig maintenanceConfig, HeldAttempts held, WorkSignal signal, Vertx vertx,
                       Clock clock) {
        this.store = store;
        this.outcomes = outcomes;
        this.telemetry = telemetry;
        this.fetchConfig = fetchConfig;
        this.fromFetch = new Throttle(fetchConfig.reapInterval());
        this.maintenanceConfig = maintenanceConfig;
        this.held = held;
        this.signal = signal;
        this.clock = clock;
        this.floor = new SweepFloor(fetchConfig.scanLookback(), fetchConfig.fullScanInterval(),
                fetchConfig.fullScanCostShare());
        this.timers = new BucketTimers(vertx, clock, TIMER_BUCKET_MS, TIMER_MARGIN_MS, TIMER_HORIZON, MAX_TIMERS);
    }

    /**
     * A lease handed out by this instance ends at {@code end}: reap then (one timer per 100 ms bucket, however many
     * leases end in it), so the job is failed and retried at its lease end, not at the reaper's next one-second
     * tick. A lease that was acked or extended meanwhile costs one reap that finds nothing (an index range scan).
     */
    public void expiresAt(Instant end) {
        if (end == null) {
            return;
        }
        timers.at("lease", end, () -> reap(clock.instant()).subscribe().with(n -> { }, e -> { }));
    }

    /**
     * Reaps expired leases when the last check from a FETCH is at least steadfast.fetch.reap-interval old (one
     * FETCH does it; the others go on without waiting); answers how many jobs it handled.
     */
    public Uni<Integer> reapIfDue(Instant now) {
        if (!fromFetch.tryPass(now)) {
            return Uni.createFrom().item(0);
        }
        return reap(now).onFailure().recoverWithItem(0);
    }

    /**
     * Forgets where the last reaps ended ({@link SweepFloor#forget}): the next reap reads from the head. For a reset,
     * which empties the tables the floor describes (and whose callers, tests, may move the clock back).
     */
    public void forget() {
        floor.forget();
    }

    /**
     * Reaps every lease expired at {@code now}, batch after batch, reading the lease index from where the last
     * finished reap of this instance ended ({@link SweepFloor}, which says why); returns how many jobs it handled.
     */
    public Uni<Integer> reap(Instant now) {
        int batch = maintenanceConfig.batchSize();
        return Uni.createFrom().deferred(() -> {
            Instant after = floor.from(now);
            long started = System.nanoTime();
            return Batches.untilShort(() -> reapBatch(now, after, batch), batch, MaintenanceStore.Reaped::locked,
                            r -> r.failed().size())
                    .invoke(n -> floor.swept(now, after == null, Duration.ofNanos(System.nanoTime() - started)));
        });
    }

    /**
     * One bounded batch of leases due a check: the expired ones decided, written in one statement and reported, the
     * extended ones checked again at their new end (MaintenanceSql.LOCK_EXPIRED_LEASES).
     */
    private Uni<MaintenanceStore.Reaped> reapBatch(Instant now, Instant after, int batch) {
        Map<UUID, FailureReport> reports = new HashMap<>();
        Map<UUID, String> owners = new HashMap<>();
        return store.reapExpiredLeases(now, after, batch, outcomes.historyKept(), row -> {
            FailureReport r = report(row, now);
            reports.put(row.id(), r);
            owners.put(row.id(), row.leaseOwner());
            return decide(row, r, now);
        }).map(reaped -> {
            for (JobRow r : reaped.failed()) {
                held.forget(r.id());
                telemetry.leaseExpired(r, owners.get(r.id()), now);
                telemetry.failed(r, reports.get(r.id()), now);
                if (r.state() == JobState.AVAILABLE || r.state() == JobState.RETRYABLE) {
                    signal.dueAt(r.queue(), r.runAt());
                }
            }
            return reaped;
        });
    }

    private FailureWrite decide(JobRow row, FailureReport r, Instant now) {
        Instant lastSeen = row.leaseRenewedAt() != null ? row.leaseRenewedAt() : row.startedAt();
        return outcomes.failed(Attempt.of(row), r, Failure.leaseExpired(r.type()), null, null, null, now, lastSeen);
    }

    private static FailureReport report(JobRow row, Instant now) {
        boolean overran = row.executionDeadline() != null && !row.executionDeadline().isAfter(now);
        String worker = row.leaseOwner() == null ? "an anonymous worker" : "worker '" + row.leaseOwner() + "'";
        if (overran) {
            return FailureReport.of("timeout", "timeout", "Execution timeout: the job ran past its timeout_ms of "
                    + row.timeoutMs() + " ms without finishing (held by " + worker + ").", true, null);
        }
        return FailureReport.of("timeout", "visibility_timeout", "Lease expired: no ack, fail or heartbeat from "
                + worker + " before " + row.leaseExpiresAt() + "; the attempt counts as failed.", true, null);
    }
}
