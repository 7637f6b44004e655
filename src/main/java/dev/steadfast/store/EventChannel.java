package dev.steadfast.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Sends lifecycle events to the other instances on this database: NOTIFY on the channel
 * {@code steadfast_events} (received through {@link JobNotifications#listenEvents}). Several payloads go in one
 * statement and one commit. PostgreSQL limits a payload to 8,000 bytes and keeps undelivered notifications in
 * an 8 GB queue; nothing is stored in a table, so nothing needs pruning and nothing is written to the WAL.
 */
@ApplicationScoped
public class EventChannel {

    static final String CHANNEL = "steadfast_events";
    /** Largest payload sent (PostgreSQL refuses 8,000 bytes and more). */
    public static final int MAX_PAYLOAD_BYTES = 7_900;
    static final String PUBLISH = "SELECT count(pg_notify('" + CHANNEL + "', p)) FROM unnest($1::text[]) AS p";

    private final Pool pool;

    public EventChannel(Pool pool) {
        this.pool = pool;
    }

    public Uni<Void> publish(List<String> payloads) {
        return pool.preparedQuery(PUBLISH).execute(Tuple.of(payloads.toArray(new String[0]))).replaceWithVoid();
    }
}
