package dev.steadfast.console.auth;

import dev.steadfast.events.Instances;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;

/**
 * Refuses to start an instance whose console sessions would not be honoured by the other instances on the same
 * database, or the reverse: with console login on, every instance must sign sessions with the same key
 * (steadfast.console.session-secret), or a login made through one instance is refused by the next request that
 * a load balancer sends elsewhere. Instances compare their keys' fingerprints ({@link SessionCodec#keyFingerprint})
 * when they join ({@link Instances}); a lone instance may keep its random per-start key. Instances with login off
 * (key 0) are not compared.
 */
@ApplicationScoped
public class SessionKeyCheck {

    /** Early, before the scheduler starts its tasks: a refused instance never begins any work. */
    void onStart(@Observes @Priority(-1000) StartupEvent e, Instances instances, SessionCodec codec, ConsoleAuth auth) {
        int mine = auth.enabled() ? codec.keyFingerprint() : 0;
        String problem = conflict(mine, instances.join(mine, Duration.ofSeconds(10)));
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }

    /** Why this instance (key {@code mine}) cannot run beside the instances present, or null when it can. */
    static String conflict(int mine, List<Long> present) {
        if (mine == 0) {
            return null;
        }
        long others = present.stream().filter(k -> k != 0 && k != (mine & 0xffffffffL)).count();
        if (others == 0) {
            return null;
        }
        return "Console login is on and " + others + " other Steadfast instance(s) on this database sign console"
                + " sessions with a different key (or with a random key made at their start-up), so a login made"
                + " on one instance would be refused by another. Set steadfast.console.session-secret"
                + " (STEADFAST_CONSOLE_SESSION_SECRET, 32 characters or more, e.g. from"
                + " 'head -c 32 /dev/urandom | base64') to the same value on every instance, then start them again.";
    }
}
