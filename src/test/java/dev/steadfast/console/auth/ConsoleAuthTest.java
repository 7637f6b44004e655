package dev.steadfast.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.console.ConsoleConfig;
import dev.steadfast.console.auth.ConsoleAuth.Outcome;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Credential checks and the failed-login limit, without a server: a fixed clock moved by hand. */
class ConsoleAuthTest {

    private static final String HASH = PasswordHash.create("right-password".toCharArray(), 1_000);

    /** Moves time by hand. */
    static final class HandClock extends Clock {
        Instant now = Instant.parse("2026-11-21T10:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    static ConsoleConfig config(Optional<String> hash, int maxFailures) {
        return config(hash, maxFailures, Map.of());
    }

    static ConsoleConfig config(Optional<String> hash, int maxFailures, Map<String, String> users) {
        Map<String, Object> console = Map.of("authEnabled", true, "username", "ops", "passwordHash", hash,
                "sessionSecret", Optional.empty(), "sessionTimeout", Duration.ofHours(8),
                "secureCookies", Optional.empty(), "maxFailedLogins", maxFailures, "users", users);
        return (ConsoleConfig) Proxy.newProxyInstance(ConsoleAuthTest.class.getClassLoader(),
                new Class<?>[] {ConsoleConfig.class}, (p, m, a) -> console.get(m.getName()));
    }

    @Test
    void onlyTheConfiguredUserWithItsPasswordGetsIn() {
        ConsoleAuth auth = new ConsoleAuth(config(Optional.of(HASH), 10), new HandClock());
        assertEquals(Outcome.OK, auth.check("ops", "right-password", "10.0.0.1"));
        assertEquals(Outcome.WRONG, auth.check("ops", "wrong-password", "10.0.0.1"));
        assertEquals(Outcome.WRONG, auth.check("root", "right-password", "10.0.0.1"));
        assertEquals(Outcome.WRONG, auth.check(null, null, "10.0.0.1"));
    }

    @Test
    void anAddressWithTooManyFailuresWaitsOutTheWindow() {
        HandClock clock = new HandClock();
        ConsoleAuth auth = new ConsoleAuth(config(Optional.of(HASH), 3), clock);
        for (int i = 0; i < 3; i++) {
            assertEquals(Outcome.WRONG, auth.check("ops", "guess-" + i, "10.0.0.9"));
        }
        assertEquals(Outcome.THROTTLED, auth.check("ops", "right-password", "10.0.0.9"), "even the right one");
        assertEquals(Outcome.OK, auth.check("ops", "right-password", "10.0.0.10"), "other addresses are unaffected");
        clock.now = clock.now.plus(ConsoleAuth.WINDOW).plusSeconds(1);
        assertEquals(Outcome.OK, auth.check("ops", "right-password", "10.0.0.9"));
    }

    @Test
    void withoutAHashNobodyGetsIn() {
        ConsoleAuth auth = new ConsoleAuth(config(Optional.empty(), 10), new HandClock());
        assertEquals(Outcome.NOT_CONFIGURED, auth.check("ops", "anything", "10.0.0.1"));
    }

    @Test
    void severalUsersEachWithTheirOwnPasswordAndRole() {
        String other = PasswordHash.create("viewer-password".toCharArray(), 1_000);
        ConsoleAuth auth = new ConsoleAuth(config(Optional.of(HASH), 10,
                Map.of("viewer", "readonly:" + other, "oper", " Operator : " + HASH)), new HandClock());
        assertEquals(Outcome.OK, auth.check("viewer", "viewer-password", "10.0.0.1"));
        assertEquals(Outcome.WRONG, auth.check("viewer", "right-password", "10.0.0.1"), "not another user's password");
        assertEquals(Outcome.OK, auth.check("oper", "right-password", "10.0.0.1"));
        assertEquals(Outcome.OK, auth.check("ops", "right-password", "10.0.0.1"), "the single user still logs in");
        assertEquals(ConsoleRole.READONLY, auth.users().find("viewer").orElseThrow().role());
        assertEquals(ConsoleRole.OPERATOR, auth.users().find("oper").orElseThrow().role());
        assertEquals(ConsoleRole.ADMIN, auth.users().find("ops").orElseThrow().role(), "the single user is an admin");
    }

    @Test
    void usersWithoutTheSingleUserAreEnough() {
        ConsoleAuth auth = new ConsoleAuth(config(Optional.empty(), 10, Map.of("alice", "admin:" + HASH)),
                new HandClock());
        assertEquals(Outcome.OK, auth.check("alice", "right-password", "10.0.0.1"));
        assertEquals(Outcome.WRONG, auth.check("ops", "right-password", "10.0.0.1"));
    }
}
