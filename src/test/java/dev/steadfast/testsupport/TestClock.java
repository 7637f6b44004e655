package dev.steadfast.testsupport;

import dev.steadfast.clock.DatabaseClock;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock the tests move: another clock plus an offset that {@link #advance} and {@link #set} change. In every
 * {@code @QuarkusTest} it is the server's {@link Clock} bean (see {@link Installed}), over the clock the server would
 * read otherwise ({@code clock.DatabaseClock}: this machine's clock corrected to PostgreSQL's), so it starts at the
 * real time and keeps ticking: rows a test writes with the database's {@code now()} stay comparable with the
 * server's instants until the test moves the clock. {@link TestClockReset} puts the offset back to zero before each
 * test method, so a moved clock never leaks into the next test; instants the server remembered while it was moved
 * can (see {@link #furthest()}).
 *
 * <p>Moving the clock changes the server's idea of "now" for everything that reads the bean: HTTP operations
 * (fetch, ack, lease checks, due times) and the scheduled tasks, which then race a test's own {@code runOnce}.
 * Assert on the outcome (a job's state) after moving the clock; where a test asserts a task's count, pass the task
 * a later instant instead and leave the server's clock alone. The server's SQL binds the clock's instant and never calls the
 * database's {@code now()}, so the database agrees with a moved clock; a test that writes times with SQL's
 * {@code now()} must move them along itself (or bind {@code clock.instant()}).
 *
 * <p>For tests without Quarkus, {@link #at(Instant)} gives a clock frozen at an instant that only moves by hand.
 */
public final class TestClock extends Clock {

    private final Clock base;
    private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);
    private final AtomicReference<Duration> furthest = new AtomicReference<>(Duration.ZERO);
    /** The instant the clock stands at while frozen ({@link #freeze}); null while it ticks. */
    private final AtomicReference<Instant> frozen = new AtomicReference<>();

    public TestClock(Clock base) {
        this.base = base;
    }

    /** A clock standing still at {@code start} until a test moves it. */
    public static TestClock at(Instant start) {
        return new TestClock(Clock.fixed(start, ZoneOffset.UTC));
    }

    /** Moves the clock forward (or back, for a negative amount) by {@code by}; answers the new instant. */
    public Instant advance(Duration by) {
        Instant stopped = frozen.get();
        if (stopped != null) {
            set(stopped.plus(by));
            return instant();
        }
        moved(offset.accumulateAndGet(by, Duration::plus));
        return instant();
    }

    /** Moves the clock so that it reads {@code at} now (and goes on ticking from there if its base ticks). */
    public void set(Instant at) {
        Duration to = Duration.between(base.instant(), at);
        offset.set(to);
        moved(to);
        frozen.updateAndGet(f -> f == null ? null : at);
    }

    /**
     * Stops the clock at the instant it reads now: from here it moves only by {@link #advance} or {@link #set},
     * until {@link #reset()}. For a test that counts what the server does per request: whatever the server redoes
     * once a second of its clock (the snapshots FETCH rereads, the worker records) then happens only when the test
     * moves the clock, not as often as a slow machine lets a second pass.
     */
    public Instant freeze() {
        Instant now = instant();
        frozen.set(now);
        return now;
    }

    private void moved(Duration to) {
        furthest.accumulateAndGet(to, (a, b) -> a.compareTo(b) >= 0 ? a : b);
    }

    /**
     * The base clock plus the furthest this clock was ever moved ahead (never less than {@link #instant()} after
     * a reset). The server keeps instants it read while a test had moved the clock (FETCH's next lease check, for
     * one) after {@link #reset()} turned it back; a test that must be past all of those starts from here.
     */
    public Instant furthest() {
        return base.instant().plus(furthest.get());
    }

    /** Back to the base clock, ticking: the real time in a {@code @QuarkusTest}. */
    public void reset() {
        frozen.set(null);
        offset.set(Duration.ZERO);
    }

    /** The clock this one adds its offset to. */
    public Clock base() {
        return base;
    }

    /** How far this clock is ahead of its base. */
    public Duration offset() {
        return offset.get();
    }

    @Override
    public Instant instant() {
        Instant stopped = frozen.get();
        return stopped != null ? stopped : base.instant().plus(offset.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    /**
     * Installs the test clock as the server's {@link Clock} in every {@code @QuarkusTest} (an alternative wins over
     * {@code clock.ClockProducer}). The packaged-jar tests ({@code *IT}) run without test classes, on the real clock.
     */
    @Singleton
    static class Installed {

        @Produces
        @Alternative
        @Priority(1)
        @Singleton
        TestClock clock(DatabaseClock database) {
            return new TestClock(database);
        }
    }
}
