package dev.steadfast.store;

import io.vertx.core.Vertx;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import io.vertx.pgclient.PgConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * LISTEN on the channel {@code steadfast_jobs}, on which PostgreSQL announces the queues that got new available
 * jobs (the statements that make them: PUSH, the promoter, a revival, cron and workflow releases; each through
 * {@link #CHANNEL}, most through {@link #announceQueuesOf}), and on
 * {@code steadfast_events}, on which instances share lifecycle events ({@link EventChannel}). One dedicated
 * connection per instance, outside the pool, so that waiting FETCH requests hold none; it goes to
 * {@code steadfast.database.session-url} when set (behind a pooler in transaction mode, {@link DatabaseConfig}), on
 * the host {@link PrimaryHosts} chooses (so with several hosts listed it follows a failover). When it breaks or cannot
 * be opened it is opened again every second; notifications sent meanwhile are lost, which is why every LISTEN (the
 * first and each after a reconnect) also calls the channel's {@code onListening}, and why waiters poll on their own as
 * well. The connection comes from {@link SessionConnections} rather than the client's {@code PgSubscriber}, which
 * opens each of its reconnects with a connection factory of its own (see there why that matters).
 */
@ApplicationScoped
public class JobNotifications {

    /** The channel the statements that make jobs available announce their queues on. */
    public static final String CHANNEL = "steadfast_jobs";
    private static final Logger LOG = Logger.getLogger(JobNotifications.class);

    /**
     * A query that announces on {@link #CHANNEL}, once each, the queues of the rows of {@code relation} (a CTE of the
     * calling statement with a column queue), answering how many: PostgreSQL sends them when the statement commits.
     */
    public static String announceQueuesOf(String relation) {
        return "SELECT count(pg_notify('" + CHANNEL + "', q.queue)) FROM (SELECT DISTINCT queue FROM " + relation
                + ") q";
    }

    /** A channel listened to: what to do with each payload, and after each LISTEN succeeded. */
    private record Channel(String name, Consumer<String> handler, Runnable onListening) {
    }

    private final Vertx vertx;
    private final List<PgConnectOptions> hosts;
    private final PrimaryHosts primary;
    private final SessionConnections sessions;
    private final List<Channel> channels = new CopyOnWriteArrayList<>();
    /** The listening connection, null while there is none. */
    private PgConnection connection;
    private boolean started;
    private boolean stopped;
    /** Connections begun; a retry or an answer for an older one is dropped. */
    private int attempts;
    /** Whether the listening connection is away (warned once per outage, not at every retry). */
    private boolean away;

    public JobNotifications(Vertx vertx, @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
                            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password,
                            DatabaseConfig database, PrimaryHosts primary, SessionConnections sessions) {
        this.vertx = vertx;
        this.hosts = connectOptionsList(database.sessionUrl().orElse(url), user, password);
        this.primary = primary;
        this.sessions = sessions;
    }

    /** Starts listening for new jobs; {@code onQueue} gets each announced queue name. */
    public void start(Consumer<String> onQueue, Runnable onSubscribed) {
        listen(new Channel(CHANNEL, onQueue, onSubscribed));
    }

    /**
     * Starts listening for other instances' lifecycle events; {@code onPayload} gets each notification,
     * {@code onListening} runs after each LISTEN succeeded (the first and each after a reconnect).
     */
    public void listenEvents(Consumer<String> onPayload, Runnable onListening) {
        listen(new Channel(EventChannel.CHANNEL, onPayload, onListening));
    }

    private void listen(Channel channel) {
        PgConnection open;
        synchronized (this) {
            channels.add(channel);
            if (!started) {
                started = true;
                connect();
                return;
            }
            open = connection; // else the connection on its way listens to every channel listed
        }
        if (open != null) {
            listenOn(open, channel);
        }
    }

    /** Opens the listening connection on the host {@link PrimaryHosts} chooses. */
    private synchronized void connect() {
        if (stopped) {
            return;
        }
        int attempt = ++attempts;
        primary.forSession(hosts).compose(sessions::connect).onComplete(ar -> {
            if (ar.succeeded()) {
                opened(ar.result(), attempt);
                return;
            }
            synchronized (this) {
                if (!away) {
                    away = true;
                    LOG.warnf("Could not listen for new jobs (%s); waiting fetches poll instead."
                            + " Retrying every second.", ar.cause().getMessage());
                }
            }
            retry(attempt);
        });
    }

    private void opened(PgConnection c, int attempt) {
        synchronized (this) {
            if (stopped || attempt != attempts) {
                c.close();
                return;
            }
            connection = c;
            if (away) {
                away = false;
                LOG.info("Listening for new jobs again.");
            }
        }
        c.notificationHandler(n -> {
            for (Channel ch : channels) {
                if (ch.name().equals(n.getChannel())) {
                    ch.handler().accept(n.getPayload());
                }
            }
        });
        c.closeHandler(v -> {
            synchronized (this) {
                if (connection != c) { // closed by stop() at shutdown; a failed LISTEN's close goes on to reconnect
                    return;
                }
                connection = null;
                away = true;
            }
            LOG.warn("The listening connection to PostgreSQL closed; waiting fetches poll until it is back.");
            retry(attempt);
        });
        channels.forEach(ch -> listenOn(c, ch));
    }

    /** LISTEN on {@code c}; when that fails, the connection is given up and opened again. */
    private void listenOn(PgConnection c, Channel channel) {
        c.query("LISTEN \"" + channel.name() + "\"").execute().onComplete(ar -> {
            if (ar.succeeded()) {
                channel.onListening().run();
            } else {
                LOG.warnf("LISTEN %s failed (%s); opening the listening connection again.", channel.name(),
                        ar.cause().getMessage());
                c.close();
            }
        });
    }

    /** In a second, connects again, unless that already happened after {@code attempt}. */
    private void retry(int attempt) {
        vertx.setTimer(1000, id -> {
            synchronized (this) {
                if (attempts == attempt) {
                    connect();
                }
            }
        });
    }

    /** Options for a connection of its own to the first host of {@code url} (see {@link #connectOptionsList}). */
    public static PgConnectOptions connectOptions(String url, Optional<String> user, Optional<String> password) {
        return connectOptionsList(url, user, password).get(0);
    }

    /**
     * Options for a connection of its own to each host of the configured URL (a comma-separated list of URLs), with
     * the pool's TLS settings (docs/operations/security.md: ssl-mode, the trusted PEM certificates, host name
     * verification), so these connections are encrypted and checked exactly like the pool's.
     */
    public static List<PgConnectOptions> connectOptionsList(String url, Optional<String> user, Optional<String> password) {
        List<PgConnectOptions> list = new ArrayList<>();
        for (String one : url.split(",")) {
            String uri = one.trim();
            uri = uri.startsWith("vertx-reactive:") ? uri.substring("vertx-reactive:".length()) : uri;
            PgConnectOptions options = PgConnectOptions.fromUri(uri);
            user.ifPresent(options::setUser);
            password.ifPresent(options::setPassword);
            Config config = ConfigProvider.getConfig();
            config.getOptionalValue("quarkus.datasource.reactive.postgresql.ssl-mode", String.class)
                    .ifPresent(mode -> options.setSslMode(SslMode.of(mode)));
            if (config.getOptionalValue("quarkus.datasource.reactive.trust-certificate-pem", Boolean.class).orElse(false)) {
                PemTrustOptions pem = new PemTrustOptions();
                config.getOptionalValues("quarkus.datasource.reactive.trust-certificate-pem.certs", String.class)
                        .ifPresent(certs -> certs.forEach(pem::addCertPath));
                options.setPemTrustOptions(pem);
            }
            config.getOptionalValue("quarkus.datasource.reactive.hostname-verification-algorithm", String.class)
                    .ifPresent(a -> options.setHostnameVerificationAlgorithm("NONE".equalsIgnoreCase(a) ? "" : a));
            list.add(options);
        }
        return list;
    }

    /**
     * Closes the listening connection and waits for the close (at most 2 s; on the thread that stops the server, not
     * an event loop): a close still running when Vert.x stops its event loops ends in an error of its own.
     */
    public void stop() {
        PgConnection closing;
        synchronized (this) {
            stopped = true;
            closing = connection;
            connection = null;
        }
        if (closing != null) {
            SessionConnections.await(closing.close());
        }
    }
}
