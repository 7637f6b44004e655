package dev.steadfast.store;

import io.vertx.core.Vertx;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.SslMode;
import io.vertx.pgclient.pubsub.PgSubscriber;
import jakarta.enterprise.context.ApplicationScoped;
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
 * {@code steadfast.database.session-url} when set (behind a pooler in transaction mode, {@link SessionConfig}). It reconnects by itself
 * every second while the database is away; notifications sent meanwhile are lost, which is why every subscription
 * (the first and each after a reconnect) also calls {@code onSubscribed}, and why waiters poll on their own as
 * well.
 */
@ApplicationScoped
public class JobNotifications {

    static final String CHANNEL = "steadfast_jobs";
    private static final Logger LOG = Logger.getLogger(JobNotifications.class);

    private final Vertx vertx;
    private final String url;
    private final Optional<String> user;
    private final Optional<String> password;
    private PgSubscriber subscriber;

    public JobNotifications(Vertx vertx, @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                            @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
                            @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password,
                            SessionConfig session) {
        this.vertx = vertx;
        this.url = session.sessionUrl().orElse(url);
        this.user = user;
        this.password = password;
    }

    /** Starts listening for new jobs; {@code onQueue} gets each announced queue name. */
    public synchronized void start(Consumer<String> onQueue, Runnable onSubscribed) {
        connected().channel(CHANNEL).handler(onQueue::accept).subscribeHandler(v -> onSubscribed.run());
    }

    /** Starts listening for other instances' lifecycle events; {@code onPayload} gets each notification. */
    public synchronized void listenEvents(Consumer<String> onPayload) {
        connected().channel(EventChannel.CHANNEL).handler(onPayload::accept);
    }

    private PgSubscriber connected() {
        if (subscriber != null) {
            return subscriber;
        }
        PgConnectOptions options = connectOptions(url, user, password);
        subscriber = PgSubscriber.subscriber(vertx, options).reconnectPolicy(retries -> 1000L);
        PgSubscriber mine = subscriber;
        subscriber.closeHandler(v -> {
            if (current() == mine) { // not when this instance closed it on shutdown
                LOG.warn("The listening connection to PostgreSQL closed; waiting fetches poll until it is back.");
            }
        });
        subscriber.connect(ar -> {
            if (ar.failed()) {
                LOG.warnf("Could not listen for new jobs (%s); waiting fetches poll instead. Retrying.",
                        ar.cause().getMessage());
            }
        });
        return subscriber;
    }

    /**
     * Options for a connection of its own to the configured database (the first host of the reactive URL), with
     * the pool's TLS settings (docs/operations/security.md: ssl-mode, the trusted PEM certificates, host name verification),
     * so these connections are encrypted and checked exactly like the pool's.
     */
    public static PgConnectOptions connectOptions(String url, Optional<String> user, Optional<String> password) {
        String uri = url.startsWith("vertx-reactive:") ? url.substring("vertx-reactive:".length()) : url;
        PgConnectOptions options = PgConnectOptions.fromUri(uri.split(",")[0].trim());
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
        return options;
    }

    private synchronized PgSubscriber current() {
        return subscriber;
    }

    public synchronized void stop() {
        if (subscriber != null) {
            PgSubscriber closing = subscriber;
            subscriber = null;
            closing.close();
        }
    }
}
