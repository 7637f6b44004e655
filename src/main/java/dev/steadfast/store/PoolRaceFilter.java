package dev.steadfast.store;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Quiets one known race in the SQL client's connection pool: while PostgreSQL refuses connections (a restart),
 * a request's wait-for-connection timer can fire after the request already failed, and the pool then fails the
 * same promise twice. Vert.x reports that as an uncaught {@code IllegalStateException: Result is already
 * complete} with a stack trace, once per such request (about 1,900 during an 8 s outage under load). The request
 * was already answered (503 backend_error), so nothing is lost: the first is logged as one WARN line, the rest
 * at DEBUG. Every other uncaught exception goes to the handler that was installed before (Quarkus's).
 */
@ApplicationScoped
class PoolRaceFilter {

    private static final Logger LOG = Logger.getLogger(PoolRaceFilter.class);

    private final AtomicLong seen = new AtomicLong();

    void install(@Observes StartupEvent e, Vertx vertx) {
        Handler<Throwable> previous = vertx.exceptionHandler();
        vertx.exceptionHandler(t -> {
            if (isPoolRace(t)) {
                if (seen.getAndIncrement() == 0) {
                    LOG.warn("the SQL client's pool failed an already failed request while the database was away"
                            + " (a harmless Vert.x race; further ones are logged at DEBUG)");
                } else {
                    LOG.debugf("pool race again (%d so far)", seen.get());
                }
            } else if (previous != null) {
                previous.handle(t);
            } else {
                LOG.error("Uncaught exception received by Vert.x", t);
            }
        });
    }

    static boolean isPoolRace(Throwable t) {
        if (!(t instanceof IllegalStateException) || !"Result is already complete".equals(t.getMessage())) {
            return false;
        }
        for (StackTraceElement f : t.getStackTrace()) {
            if (f.getClassName().startsWith("io.vertx.sqlclient.impl.pool.")) {
                return true;
            }
        }
        return false;
    }
}
