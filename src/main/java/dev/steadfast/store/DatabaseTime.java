package dev.steadfast.store;

import dev.steadfast.domain.ClockOffset;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;

/**
 * Reads PostgreSQL's clock. {@code clock_timestamp()} rather than {@code now()}: now() is the start of the
 * transaction, which for a single statement is close but not the moment the clock was read.
 */
@ApplicationScoped
public class DatabaseTime {

    static final String READ_CLOCK = "SELECT clock_timestamp() AS t";

    private final Pool pool;

    public DatabaseTime(Pool pool) {
        this.pool = pool;
    }

    /** One round trip, timed with {@code local} on both sides. */
    public Uni<ClockOffset.Sample> sample(Clock local) {
        return Uni.createFrom().deferred(() -> {
            Instant sent = local.instant();
            return pool.query(READ_CLOCK).execute().map(rows -> new ClockOffset.Sample(sent,
                    rows.iterator().next().getOffsetDateTime("t").toInstant(), local.instant()));
        });
    }
}
