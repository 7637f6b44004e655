package dev.steadfast.maintenance;

import dev.steadfast.store.DatabaseFaults;
import dev.steadfast.store.maintenance.VacuumHorizonStore;
import dev.steadfast.store.maintenance.VacuumHorizonStore.Horizon;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.ToDoubleFunction;
import org.jboss.logging.Logger;

/**
 * Watches the xmin horizon: every steadfast.vacuum-horizon.sample-interval (15 s) it reads how old the oldest open
 * transaction in this database is and how old the transaction holding back VACUUM is ({@link VacuumHorizonStore}),
 * and shows it three ways: the gauges {@code steadfast_database_oldest_transaction_seconds},
 * {@code steadfast_database_vacuum_horizon_seconds} and {@code steadfast_database_vacuum_horizon_xids}; the
 * details of the readiness check {@code vacuum-horizon} ({@link VacuumHorizonReadiness}, which stays UP: an idle
 * transaction is a client's fault that restarting this server would not cure); and, past
 * steadfast.vacuum-horizon.warn-after (300 s), a WARN line naming the session, at most once per
 * steadfast.vacuum-horizon.log-every per instance. Why it matters: docs/operations/idle-transactions.md.
 *
 * <p>Safe on every instance at once: one read of the statistics views, no locks. Ages are measured with the
 * server's clock (the database's by default) against the transactions' start times. A failed read keeps the last
 * reading and is logged at debug level (the maintenance tasks already report an unreachable database).
 */
@ApplicationScoped
class VacuumHorizon {

    private static final Logger LOG = Logger.getLogger(VacuumHorizon.class);

    private final VacuumHorizonStore store;
    private final Clock clock;
    private final Duration warnAfter;
    private final Duration logEvery;
    private volatile Reading last;
    private volatile Instant lastLogged;

    public VacuumHorizon(VacuumHorizonStore store, Clock clock, VacuumHorizonConfig config, MeterRegistry meters) {
        this.store = store;
        this.clock = clock;
        this.warnAfter = config.warnAfter();
        this.logEvery = config.logEvery();
        gauge(meters, "steadfast.database.oldest.transaction.seconds",
                "Age of the oldest open transaction in this database (0 when none)", Reading::oldestSeconds);
        gauge(meters, "steadfast.database.vacuum.horizon.seconds",
                "Age of the transaction (or prepared transaction) holding back VACUUM on this database (0 when none)",
                Reading::horizonSeconds);
        gauge(meters, "steadfast.database.vacuum.horizon.xids",
                "How many transactions old the xmin holding back VACUUM is (sessions and replication slots)",
                Reading::horizonXids);
    }

    private void gauge(MeterRegistry meters, String name, String description, ToDoubleFunction<Reading> value) {
        Gauge.builder(name, this, h -> h.last == null ? Double.NaN : value.applyAsDouble(h.last))
                .description(description).register(meters);
    }

    @Scheduled(identity = "vacuum-horizon", every = "${steadfast.vacuum-horizon.sample-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return runOnce(clock.instant()).onFailure().invoke(e -> LOG.debugf("could not read the vacuum horizon: %s",
                DatabaseFaults.describe(e))).onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Reads the horizon once, as of {@code now}: updates the gauges and readiness details, logs when too old. */
    public Uni<Reading> runOnce(Instant now) {
        return store.read().map(h -> {
            Reading r = Reading.of(h, now);
            last = r;
            String warning = r.warning(warnAfter);
            if (warning != null && (lastLogged == null || !now.isBefore(lastLogged.plus(logEvery)))) {
                lastLogged = now;
                LOG.warn(warning + "; see docs/operations/idle-transactions.md");
            }
            return r;
        });
    }

    /** The last reading, or null before the first. */
    public Reading last() {
        return last;
    }

    /** The threshold past which a reading carries a warning. */
    public Duration warnAfter() {
        return warnAfter;
    }

    /**
     * One reading, with ages in seconds as of {@code at} (0 when nothing is open).
     *
     * @param horizonXids the oldest xmin's age in transactions over sessions and replication slots
     */
    public record Reading(Instant at, double oldestSeconds, double horizonSeconds, long horizonXids, Horizon raw) {

        static Reading of(Horizon h, Instant at) {
            double horizon = Math.max(seconds(h.holderStart(), at), seconds(h.preparedStart(), at));
            long xids = Math.max(h.holderXids() == null ? 0 : h.holderXids(), h.slotXids() == null ? 0 : h.slotXids());
            return new Reading(at, Math.max(seconds(h.oldestStart(), at), seconds(h.preparedStart(), at)), horizon,
                    xids, h);
        }

        private static double seconds(Instant start, Instant at) {
            return start == null ? 0 : Math.max(0, Duration.between(start, at).toMillis() / 1000.0);
        }

        /** What to tell an operator when the horizon is older than {@code limit}, or null. */
        public String warning(Duration limit) {
            double limitSeconds = limit.toMillis() / 1000.0;
            if (horizonSeconds > limitSeconds) {
                return String.format("a transaction has held back VACUUM for %.0f s (over %s): session pid %s, %s,"
                                + " its xmin %d transactions old; dead job rows pile up and every claim scans them",
                        horizonSeconds, limit, raw.holderPid() == null ? "(a prepared transaction)" : raw.holderPid(),
                        raw.holderState() == null ? "state unknown" : raw.holderState(), horizonXids);
            }
            if (oldestSeconds > limitSeconds) {
                return String.format("a transaction has been open for %.0f s (over %s)", oldestSeconds, limit);
            }
            return null;
        }
    }
}
