package dev.steadfast.store;

import io.vertx.core.Future;
import io.vertx.pgclient.PgConnectOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Chooses the host of every new database connection when several are listed (the pool's
 * {@code quarkus.datasource.reactive.url}, or {@code steadfast.database.session-url}). The Vert.x PostgreSQL client
 * has no {@code target_session_attrs}: with several URLs Quarkus spreads connections over them in turn, which after a
 * failover (or before it, with a standby listed) sends writes to a read-only standby. With
 * {@code steadfast.database.target-session-attrs=read-write} each new connection goes instead to the first host,
 * starting with the last one found, that answers {@link #ACCEPTS_WRITES} with true: one short extra connection
 * per new connection, only while the pool grows or after connections broke (a failover). Connections already open
 * stay where they are until they break, which a failover does (the old primary stops or restarts as a standby).
 */
@ApplicationScoped
class PrimaryHosts {

    /** libpq's test for {@code target_session_attrs=read-write}; a simple query, so no statement is prepared. */
    static final String ACCEPTS_WRITES = "SELECT current_setting('transaction_read_only') = 'off'";

    private static final Logger LOG = Logger.getLogger(PrimaryHosts.class);

    private final TargetSessionAttrs target;
    private final SessionConnections sessions;
    private final AtomicInteger next = new AtomicInteger();
    private volatile int primary = -1;

    public PrimaryHosts(DatabaseConfig config, SessionConnections sessions) {
        this.target = config.targetSessionAttrs();
        this.sessions = sessions;
    }

    /** Whether connections to {@code hosts} look for the primary (read-write, several hosts). */
    public boolean follows(List<PgConnectOptions> hosts) {
        return target == TargetSessionAttrs.READ_WRITE && hosts.size() > 1;
    }

    /** The host of a session connection (LISTEN, presence): the first one, or the primary when it {@link #follows}. */
    public Future<PgConnectOptions> forSession(List<PgConnectOptions> hosts) {
        return follows(hosts) ? choose(hosts) : Future.succeededFuture(hosts.get(0));
    }

    /** The options of the pool's next connection among {@code hosts}. */
    public Future<PgConnectOptions> choose(List<PgConnectOptions> hosts) {
        if (hosts.size() == 1) {
            return Future.succeededFuture(hosts.get(0));
        }
        if (target == TargetSessionAttrs.ANY) {
            return Future.succeededFuture(hosts.get(Math.floorMod(next.getAndIncrement(), hosts.size())));
        }
        return tryFrom(hosts, Math.max(primary, 0), 0);
    }

    private Future<PgConnectOptions> tryFrom(List<PgConnectOptions> hosts, int start, int tried) {
        if (tried == hosts.size()) {
            // a connect failure, so that requests meanwhile get 503 like any database outage (DatabaseFaults)
            return Future.failedFuture(new ConnectException("none of the " + hosts.size()
                    + " database hosts accepts writes (steadfast.database.target-session-attrs=read-write)"));
        }
        int i = (start + tried) % hosts.size();
        PgConnectOptions host = hosts.get(i);
        return sessions.connect(host)
                .compose(c -> c.query(ACCEPTS_WRITES).execute().eventually(v -> c.close()))
                .map(rows -> rows.iterator().next().getBoolean(0))
                .otherwise(false)
                .compose(writable -> {
                    if (!writable) {
                        return tryFrom(hosts, start, tried + 1);
                    }
                    if (primary != i) {
                        LOG.infof("database connections go to %s:%d, the host that accepts writes",
                                host.getHost(), host.getPort());
                        primary = i;
                    }
                    return Future.succeededFuture(host);
                });
    }
}
