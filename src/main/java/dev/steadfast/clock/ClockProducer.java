package dev.steadfast.clock;

import dev.steadfast.config.SteadfastConfig;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The one clock the server reads; every operation reads it once and passes the instant down. With
 * steadfast.clock.source=database (the default outside dev) it is {@code clock.DatabaseClock}: this
 * machine's clock corrected to PostgreSQL's, measured during start-up and every 30 s.
 */
public class ClockProducer {

    @Produces
    @Singleton
    Clock clock(SteadfastConfig config, Instance<dev.steadfast.clock.DatabaseClock> database) {
        String source = config.clock().source();
        if ("system".equals(source)) {
            return Clock.systemUTC();
        }
        if (!"database".equals(source)) {
            throw new IllegalArgumentException("steadfast.clock.source must be 'database' or 'system', not '"
                    + source + "'");
        }
        return database.get();
    }
}
