package dev.steadfast.clock;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The one clock the server reads; every operation reads it once and passes the instant down. With
 * steadfast.clock.source=database (the default outside dev) it is {@code clock.DatabaseClock}: this
 * machine's clock corrected to PostgreSQL's, measured during start-up and every 30 s.
 */
class ClockProducer {

    @Produces
    @Singleton
    Clock clock(ClockConfig config, Instance<DatabaseClock> database) {
        if (config.source() == ClockSource.SYSTEM) {
            return Clock.systemUTC();
        }
        return database.get();
    }
}
