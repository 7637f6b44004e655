package dev.steadfast.console.auth;

import dev.steadfast.console.ConsoleConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Who may use the console: the users of {@link ConsoleUsers} (steadfast.console.users, and the single
 * steadfast.console.username / password-hash), their passwords checked with {@link PasswordHash}; a user's role
 * is given to the request's security identity by {@link ConsoleUserIdentities}. Failed logins are counted per remote address; past steadfast.console.max-failed-logins
 * within 15 minutes that address is refused until the window passes (per instance, in memory). A hash that cannot
 * be read fails start-up, so a typo never silently locks everyone out.
 */
@ApplicationScoped
public class ConsoleAuth {

    private static final Logger LOG = Logger.getLogger(ConsoleAuth.class);
    static final Duration WINDOW = Duration.ofMinutes(15);

    private final boolean enabled;
    private final ConsoleUsers users;
    private final int maxFailures;
    private final Duration sessionTimeout;
    private final Clock clock;
    private final Map<String, Failures> failures = new ConcurrentHashMap<>();

    private record Failures(int count, Instant since) {
    }

    /** The outcome of a login attempt. */
    public enum Outcome { OK, WRONG, THROTTLED, NOT_CONFIGURED }

    public ConsoleAuth(ConsoleConfig c, Clock clock) {
        this.enabled = c.authEnabled();
        this.users = ConsoleUsers.parse(c.users(), c.username(), c.passwordHash());
        this.maxFailures = Math.max(1, c.maxFailedLogins());
        this.sessionTimeout = c.sessionTimeout();
        this.clock = clock;
        if (enabled && users.isEmpty()) {
            LOG.warn("the console requires a login but no user is configured (steadfast.console.users or"
                    + " steadfast.console.password-hash): nobody can log in"
                    + " (make a hash with: java -jar quarkus-run.jar hash-password)");
        }
        if (!enabled) {
            LOG.warn("console login is switched off (steadfast.console.auth-enabled=false): anyone who can reach"
                    + " /admin can operate this server");
        }
    }

    public boolean enabled() {
        return enabled;
    }

    public boolean configured() {
        return !users.isEmpty();
    }

    /** The configured users. */
    public ConsoleUsers users() {
        return users;
    }

    public Duration sessionTimeout() {
        return sessionTimeout;
    }

    /** Checks a login; slow on purpose (PBKDF2), so call it off the event loop. */
    public Outcome check(String user, String password, String remote) {
        if (users.isEmpty()) {
            return Outcome.NOT_CONFIGURED;
        }
        Instant now = clock.instant();
        Failures f = failures.get(remote);
        if (f != null && f.count() >= maxFailures && now.isBefore(f.since().plus(WINDOW))) {
            return Outcome.THROTTLED;
        }
        Optional<ConsoleUsers.User> who = users.find(user);
        boolean ok = who.isPresent() ? who.get().hash().matches(password == null ? "" : password) : burn(password);
        if (ok) {
            failures.remove(remote);
            return Outcome.OK;
        }
        if (failures.size() > 10_000) {
            failures.values().removeIf(old -> now.isAfter(old.since().plus(WINDOW)));
        }
        failures.compute(remote, (k, old) -> old == null || now.isAfter(old.since().plus(WINDOW))
                ? new Failures(1, now) : new Failures(old.count() + 1, old.since()));
        LOG.warnf("console login failed for user '%s' from %s", user, remote);
        return Outcome.WRONG;
    }

    private boolean burn(String password) {
        users.anyHash().ifPresent(h -> h.matchesNothing(password == null ? "" : password));
        return false;
    }
}
