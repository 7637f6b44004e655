package dev.steadfast.clock;

import dev.steadfast.domain.ClockOffset;
import dev.steadfast.store.DatabaseTime;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Typed;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * This machine's clock corrected by its offset to PostgreSQL's clock, so that every instance on one database
 * compares lease expiries, due times and retention cut-offs on the same clock (steadfast.clock.source=database,
 * the default outside dev). The offset is measured during start-up (which waits up to 10 s for it) and again
 * every steadfast.clock.sample-interval, each time as the tightest of the round trips of the last four
 * measurements, three each ({@link ClockOffset#best}), so a step of this machine's clock is followed within
 * four intervals at worst; reading the clock costs nothing more than the system clock. When a measurement
 * fails (the database is away) the last offset stays in force.
 *
 * <p>Guarantee: two instances' readings differ by at most the sum of their half round trips at the last sample
 * plus how far each machine's clock drifted since (milliseconds a minute at worst), instead of by however far
 * apart the machines' clocks are.
 */
@ApplicationScoped
@Typed(DatabaseClock.class) // injected as a Clock only through config.ClockProducer
public class DatabaseClock extends Clock {

    private static final Logger LOG = Logger.getLogger(DatabaseClock.class);
    private static final Duration LOGGED_OFFSET = Duration.ofMillis(100);
    /** Measurements whose samples are kept: the tightest round trip of the last few wins (NTP's clock filter). */
    static final int KEPT_MEASUREMENTS = 4;

    private final Clock system = Clock.systemUTC();
    private final DatabaseTime database;
    private final Vertx vertx;
    private final Duration interval;
    private final boolean used;
    private volatile Duration offset = Duration.ZERO;
    private final ArrayDeque<List<ClockOffset.Sample>> kept = new ArrayDeque<>();
    private volatile long timer = -1;

    public DatabaseClock(DatabaseTime database, Vertx vertx, ClockConfig config) {
        this.database = database;
        this.vertx = vertx;
        this.interval = config.sampleInterval();
        this.used = config.source() == ClockSource.DATABASE;
    }

    void onStart(@Observes StartupEvent e) {
        if (used) {
            start(Duration.ofSeconds(10));
        }
    }

    /** Measures the offset now (blocking up to {@code wait}) and then every sample interval. */
    void start(Duration wait) {
        try {
            measure().await().atMost(wait);
        } catch (RuntimeException e) {
            LOG.warnf("could not read the database's clock at start-up (%s); using this machine's until it can",
                    e.getMessage());
        }
        timer = vertx.setPeriodic(Math.max(1000, interval.toMillis()), id -> measure().subscribe().with(v -> { },
                e -> LOG.debugf("reading the database's clock failed: %s", e.getMessage())));
    }

    void stop(@Observes ShutdownEvent e) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /**
     * Three round trips one after the other; the tightest of these and of the last few measurements' sets the
     * offset (on a busy machine one measurement's round trips can all be long, and its offset off by half of one).
     */
    Uni<Duration> measure() {
        List<ClockOffset.Sample> samples = new ArrayList<>(3);
        return database.sample(system).invoke(samples::add)
                .chain(() -> database.sample(system)).invoke(samples::add)
                .chain(() -> database.sample(system)).invoke(samples::add)
                .map(s -> {
                    Duration measured;
                    synchronized (kept) {
                        kept.addLast(samples);
                        if (kept.size() > KEPT_MEASUREMENTS) {
                            kept.removeFirst();
                        }
                        List<ClockOffset.Sample> all = new ArrayList<>();
                        kept.forEach(all::addAll);
                        measured = ClockOffset.best(all);
                    }
                    if (measured.minus(offset).abs().compareTo(LOGGED_OFFSET) > 0) {
                        LOG.infof("this machine's clock is %d ms %s the database's; times follow the database",
                                measured.abs().toMillis(), measured.isNegative() ? "ahead of" : "behind");
                    }
                    offset = measured;
                    return measured;
                });
    }

    /** The database's clock minus this machine's, as last measured. */
    public Duration offset() {
        return offset;
    }

    @Override
    public Instant instant() {
        return system.instant().plus(offset);
    }

    @Override
    public long millis() {
        return instant().toEpochMilli();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return Clock.offset(system.withZone(zone), offset);
    }
}
