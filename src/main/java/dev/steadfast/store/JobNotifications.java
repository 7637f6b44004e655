package dev.steadfast.store;

import io.vertx.core.Vertx;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import io.vertx.pgclient.pubsub.PgSubscriber;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * LISTEN on the channel {@code steadfast_jobs}, on which PostgreSQL announces the queues that got new available
 * jobs (the insert trigger of V5__lean_hot_path.sql, and the promoter's statement), and on
 * {@code steadfast_events}, on which instances share lifecycle events ({@link EventChannel}). One dedicated
 * connection per instance, outside the pool, so that waiting FETCH requests hold none; it goes to
 * {@code steadfast.database.session-url} when set (behind a pooler in transaction mode, {@link DatabaseConfig}). It
 * reconnects by itself every second while the database is away; notifications sent meanwhile are lost, which is
 * why every subscription (the first and each after a reconnect) also calls {@code onSubscribed}, and why waiters
 * poll on their own as well. With several hosts listed, each reconnection asks {@link PrimaryHosts} again, so the
 * connection follows a failover.
 */
@ApplicationScoped
public class JobNotifications {

    static final String CHANNEL = "steadfast_jobs";
    private static final Logger LOG = Logger.getLogger(JobNotifications.class);

    private final Vertx vertx;
    private final List<PgConnectOptions> hosts;
    private final PrimaryHosts primary;
    private final List<Consumer<PgSubscriber>> channels = new ArrayList<>();
    private PgSubscriber subscriber;
    private boolean started;
    private boolean stopped;
    /** Connections begun with several hosts; a retry for an older one is dropped. */
    private int attempts;

    public JobNotifications(Vertx vertx, @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
                            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password,
                            DatabaseConfig database, PrimaryHosts primary) {
        this.vertx = vertx;
        this.hosts = connectOptionsList(database.sessionUrl().orElse(url), user, password);
        this.primary = primary;
    }

    /** Starts listening for new jobs; {@code onQueue} gets each announced queue name. */
    public synchronized void start(Consumer<String> onQueue, Runnable onSubscribed) {
        listen(s -> s.channel(CHANNEL).handler(onQueue::accept).subscribeHandler(v -> onSubscribed.run()));
    }

    /** Starts listening for other instances' lifecycle events; {@code onPayload} gets each notification. */
    public synchronized void listenEvents(Consumer<String> onPayload) {
        listen(s -> s.channel(EventChannel.CHANNEL).handler(onPayload::accept));
    }

    private void listen(Consumer<PgSubscriber> channel) {
        channels.add(channel);
        if (!started) {
            started = true;
            connect();
        } else if (subscriber != null) { // else the subscriber on its way takes every channel listed
            channel.accept(subscriber);
        }
    }

    /** A subscriber on the host {@link PrimaryHosts} chooses, with every channel registered so far. */
    private synchronized void connect() {
        if (stopped) {
            return;
        }
        int attempt = ++attempts;
        if (primary.follows(hosts)) {
            primary.choose(vertx, hosts).onComplete(ar -> {
                if (ar.failed()) {
                    LOG.warnf("Could not listen for new jobs (%s); waiting fetches poll instead. Retrying.",
                            ar.cause().getMessage());
                    retry(attempt);
                } else {
                    subscribe(ar.result(), attempt);
                }
            });
        } else {
            subscribe(hosts.get(0), 0);
        }
    }

    /**
     * One host ({@code attempt} 0): the subscriber reconnects by itself every second. Several: it does not, and a
     * failed connect or a close makes a new subscriber, on the host chosen again.
     */
    private synchronized void subscribe(PgConnectOptions options, int attempt) {
        if (stopped) {
            return;
        }
        boolean follow = attempt > 0;
        PgSubscriber mine = PgSubscriber.subscriber(vertx, options).reconnectPolicy(retries -> follow ? -1L : 1000L);
        subscriber = mine;
        channels.forEach(c -> c.accept(mine));
        mine.closeHandler(v -> {
            if (current() == mine) { // not when this instance closed it on shutdown
                LOG.warn("The listening connection to PostgreSQL closed; waiting fetches poll until it is back.");
                if (follow) {
                    retry(attempt);
                }
            }
        });
        mine.connect(ar -> {
            if (ar.failed()) {
                LOG.warnf("Could not listen for new jobs (%s); waiting fetches poll instead. Retrying.",
                        ar.cause().getMessage());
                if (follow) {
                    retry(attempt);
                }
            }
        });
    }

    /**
     * In a second, connects again, unless that already happened after {@code attempt} (a subscriber's failed
     * connect and its close may both report, and only one subscriber may deliver each notification).
     */
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

    private synchronized PgSubscriber current() {
        return subscriber;
    }

    /**
     * Closes the listening connection and waits for the close (at most 2 s; on the thread that stops the server, not
     * an event loop): a close still running when Vert.x stops its event loops ends in an error of its own.
     */
    public void stop() {
        PgSubscriber closing;
        synchronized (this) {
            stopped = true;
            closing = subscriber;
            subscriber = null;
        }
        if (closing != null) {
            InstancePresence.await(closing.close());
        }
    }
}
