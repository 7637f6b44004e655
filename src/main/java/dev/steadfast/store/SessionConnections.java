package dev.steadfast.store;

import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.spi.PgDriver;
import io.vertx.sqlclient.spi.ConnectionFactory;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Opens the connections Steadfast keeps outside the pool: the LISTEN connection ({@link JobNotifications}), the
 * presence connection ({@link InstancePresence}) and the short checks of {@link PrimaryHosts}. They all go through one
 * connection factory that lives as long as the application and is closed at shutdown, after the connections.
 *
 * <p>Why not {@code PgConnection.connect} or {@code PgSubscriber}: in the Vert.x PostgreSQL client 4.5, every such call
 * builds a connection factory with a network client of its own, which only a connection it opened closes. A connect
 * that fails (each retry while PostgreSQL is down or restarting) leaves it to the garbage collector, and the client's
 * finalizer closes it whenever the collector runs, after Vert.x stopped its event loops too, which Netty logged as an
 * ERROR ("Failed to submit a listener notification task. Event loop shut down?") when an instance was stopped soon
 * after a database restart.
 */
@ApplicationScoped
public class SessionConnections {

    private static final Logger LOG = Logger.getLogger(SessionConnections.class);

    private final Vertx vertx;
    private ConnectionFactory factory;
    private boolean closed;

    public SessionConnections(Vertx vertx) {
        this.vertx = vertx;
    }

    /** A new connection of its own to {@code host}; failed after shutdown. */
    public Future<PgConnection> connect(PgConnectOptions host) {
        ConnectionFactory f;
        synchronized (this) {
            if (closed) {
                return Future.failedFuture(new IllegalStateException("the application is shutting down"));
            }
            if (factory == null) { // the network settings (TLS) are the same for every host listed
                factory = PgDriver.INSTANCE.createConnectionFactory(vertx, host);
            }
            f = factory;
        }
        return f.connect(vertx.getOrCreateContext(), host).map(PgConnection::cast);
    }

    /**
     * Closes the factory at shutdown, after the observers of default priority ({@code JobNotifications} and
     * {@code InstancePresence} close their connections there), waiting for it as they wait for theirs.
     */
    void close(@Observes @Priority(Interceptor.Priority.LIBRARY_AFTER + 100) ShutdownEvent e) {
        ConnectionFactory f;
        synchronized (this) {
            closed = true;
            f = factory;
            factory = null;
        }
        if (f != null) {
            Promise<Void> done = Promise.promise();
            f.close(done);
            await(done.future());
        }
    }

    /**
     * Waits at most 2 s for a session connection's close, at shutdown (a close still running when Vert.x stops its
     * event loops logs an error); on an event loop it does not wait.
     */
    static void await(Future<Void> close) {
        if (Context.isOnEventLoopThread()) {
            return;
        }
        try {
            close.toCompletionStage().toCompletableFuture().get(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debugf("closing a session connection at shutdown: %s", e.toString());
        }
    }
}
