package dev.steadfast.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Which Steadfast instances are running on this database, without a table to keep tidy: each instance holds a
 * shared advisory lock {@code (LOCK_SPACE, key)} on one connection of its own, for as long as it runs, and the
 * instances present are the holders of such locks in {@code pg_locks}. PostgreSQL drops the lock the moment that
 * connection ends, also when the process is killed or its machine vanishes (after TCP keepalive), so a crashed
 * instance never counts as present and a restarted one is never refused because of its own ghost. The key is
 * the instance's console session-key fingerprint (0 without console login), so instances can also tell whether
 * they sign sessions alike. When the connection breaks (a database restart) it is opened again every second
 * ({@link SessionConnections}). The
 * connection goes to {@code steadfast.database.session-url} when set ({@link DatabaseConfig}): a session-level lock
 * held through a pooler in transaction mode would be taken on whichever server connection ran the statement.
 */
@ApplicationScoped
public class InstancePresence {

    /** The first key of Steadfast's advisory locks ("STFD"); the second is the instance's key. */
    static final int LOCK_SPACE = 0x53544644;
    /** Held for the life of the connection; shared, since instances with one key all hold the same lock. */
    static final String HOLD = "SELECT pg_advisory_lock_shared($1, $2)";
    /** The instances present: one granted lock per holding connection, in this database only. */
    static final String PRESENT = "SELECT objid::bigint AS key FROM pg_locks WHERE locktype = 'advisory'"
            + " AND classid::bigint = $1 AND objsubid = 2 AND granted"
            + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())";

    private static final Logger LOG = Logger.getLogger(InstancePresence.class);

    private final Vertx vertx;
    private final Pool pool;
    private final List<PgConnectOptions> hosts;
    private final PrimaryHosts primary;
    private final SessionConnections sessions;
    private SqlConnection connection;
    private boolean leaving;

    public InstancePresence(Vertx vertx, Pool pool,
                            @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
                            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password,
                            DatabaseConfig database, PrimaryHosts primary, SessionConnections sessions) {
        this.vertx = vertx;
        this.pool = pool;
        this.hosts = JobNotifications.connectOptionsList(database.sessionUrl().orElse(url), user, password);
        this.primary = primary;
        this.sessions = sessions;
    }

    /** Opens this instance's connection (on the host {@link PrimaryHosts} chooses) and takes its lock. */
    public Uni<Void> join(int key) {
        return Uni.createFrom().completionStage(() -> primary.forSession(hosts)
                .compose(sessions::connect)
                .compose(c -> c.preparedQuery(HOLD).execute(io.vertx.sqlclient.Tuple.of(LOCK_SPACE, key))
                        .map(rows -> {
                            held(c, key);
                            return (Void) null;
                        })
                        .onFailure(e -> c.close()))
                .toCompletionStage());
    }

    private synchronized void held(SqlConnection c, int key) {
        connection = c;
        c.closeHandler(v -> {
            synchronized (this) {
                if (leaving || connection != c) {
                    return;
                }
                connection = null;
            }
            LOG.warn("the presence connection to PostgreSQL closed; opening it again");
            rejoin(key);
        });
    }

    private void rejoin(int key) {
        vertx.setTimer(1000, id -> join(key).subscribe().with(v -> LOG.info("presence connection open again"),
                e -> rejoin(key)));
    }

    /** The keys of every instance present on this database, this one included (once it has joined). */
    public Uni<List<Long>> present() {
        return pool.preparedQuery(PRESENT).execute(Tuple.of((long) LOCK_SPACE)).map(rows -> {
            List<Long> keys = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                keys.add(r.getLong("key"));
            }
            return keys;
        });
    }

    /**
     * Ends this instance's presence (its lock goes with the connection), waiting for the close as
     * {@link JobNotifications#stop} does ({@link SessionConnections#await}).
     */
    public void leave() {
        SqlConnection closing;
        synchronized (this) {
            leaving = true;
            closing = connection;
            connection = null;
        }
        if (closing != null) {
            SessionConnections.await(closing.close());
        }
    }
}
