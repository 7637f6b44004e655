package dev.steadfast.console.auth;

import dev.steadfast.events.Instances;
import dev.steadfast.store.ServerKeyStore;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Chooses the key that signs console sessions, at start-up, before any request: steadfast.console.session-secret
 * when it is set, otherwise the key the instances on this database share ({@link ServerKeyStore}, made by the
 * first instance that needed it). Every instance started with the defaults therefore signs alike, so a login made
 * through one is honoured by the next request a load balancer sends elsewhere, and a new version started beside
 * an old one (a rolling upgrade) just runs.
 *
 * <p>Instances compare their keys' fingerprints ({@link SessionCodec#keyFingerprint}) when they join
 * ({@link Instances}). A different key elsewhere (a configured secret on some instances only, or an instance of a
 * version from before the shared key, with its random per-start key) is logged as a warning and never stops the
 * start: logins are then honoured only by the instance that made them, until every instance signs alike; refusing
 * to start would turn every such upgrade into an outage. Instances with login off (key 0) are not compared.
 */
@ApplicationScoped
class SessionKeys {

    /** The row of {@code server_keys} that holds the shared session key. */
    static final String SHARED_KEY = "console-session";
    private static final Logger LOG = Logger.getLogger(SessionKeys.class);
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Early, before the scheduler starts its tasks and before the HTTP server answers a request. */
    void onStart(@Observes @Priority(-1000) StartupEvent e, Instances instances, SessionCodec codec, ConsoleAuth auth,
                 ServerKeyStore keys) {
        if (!codec.configured()) {
            codec.useKey(keys.sharedKey(SHARED_KEY).await().atMost(WAIT));
        }
        int mine = auth.enabled() ? codec.keyFingerprint() : 0;
        String problem = mismatch(mine, instances.join(mine, WAIT));
        if (problem != null) {
            LOG.warn(problem);
        }
    }

    /** Why logins made on this instance (key {@code mine}) are not honoured by the instances present, or null. */
    static String mismatch(int mine, List<Long> present) {
        if (mine == 0) {
            return null;
        }
        long others = present.stream().filter(k -> k != 0 && k != (mine & 0xffffffffL)).count();
        if (others == 0) {
            return null;
        }
        return "Console login is on and " + others + " other Steadfast instance(s) on this database sign console"
                + " sessions with a different key (a different steadfast.console.session-secret, or a version from"
                + " before the key kept in the database), so a login made on one instance is refused by another until"
                + " every instance signs alike. This is expected while a rolling upgrade replaces those instances;"
                + " otherwise set steadfast.console.session-secret (STEADFAST_CONSOLE_SESSION_SECRET) to the same value"
                + " on every instance, or on none.";
    }
}
