package dev.steadfast.store;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Tells a passing database fault (the server restarting or shutting down, a lost connection, no free connection
 * in the pool, a statement timeout) from a real error. A passing fault is answered 503 backend_error, retryable,
 * and is logged once per outage by the maintenance tasks; anything else stays an internal error.
 *
 * <p>SQLSTATE classes: 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up, shutting down, not yet accepting connections), 57014 query_canceled (statement
 * timeout), 53 insufficient resources (too many connections, out of memory or disk), 40001 / 40P01 serialization
 * failure and deadlock (the same request succeeds when retried).
 */
public final class DatabaseFaults {

    private DatabaseFaults() {
    }

    /** True when {@code e} (or a cause) is a database fault that a retry after a moment can get past. */
    public static boolean isTransient(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PgException pg) {
                return transientState(pg.getSqlState());
            }
            if (t instanceof ConnectException || t instanceof ClosedConnectionException
                    || t instanceof SocketException || t instanceof ClosedChannelException
                    || t instanceof TimeoutException) {
                return true;
            }
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (t instanceof VertxException && (m.contains("connection is closed") || m.contains("pool closed")
                    || m.contains("timeout waiting for connection") || m.contains("connection reset"))) {
                return true;
            }
            if (t instanceof IOException && (m.contains("connection reset") || m.contains("broken pipe"))) {
                return true;
            }
            if (m.startsWith("connection is not active now")) { // Vert.x: a statement on a connection closed meanwhile
                return true; // (seen behind PgBouncer when PostgreSQL restarts: docs/operations/poolers.md)
            }
        }
        return false;
    }

    static boolean transientState(String state) {
        if (state == null) {
            return false;
        }
        return state.startsWith("08") || state.startsWith("53") || state.equals("57P01") || state.equals("57P02")
                || state.equals("57P03") || state.equals("57014") || state.equals("40001") || state.equals("40P01");
    }

    /** A one-line description of a fault for logs: class and message, no stack trace. */
    public static String describe(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t && !(t instanceof PgException)) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage(); // a PgException's message has its SQLSTATE
    }
}
