package dev.steadfast.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.http.ApiAccess.Role;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The role-to-route table and the token list, without a server. */
class ApiAccessTest {

    private static final Set<Role> PRODUCER = EnumSet.of(Role.PRODUCER, Role.ADMIN);
    private static final Set<Role> WORKER = EnumSet.of(Role.WORKER, Role.ADMIN);
    private static final Set<Role> READ = EnumSet.of(Role.READONLY, Role.ADMIN);
    private static final Set<Role> ADMIN = EnumSet.of(Role.ADMIN);
    private static final String ID = "019a0000-0000-7000-8000-000000000001";

    @Test
    void everyRouteHasItsRoles() {
        Object[][] table = {
                {"POST", "/ojs/v1/jobs", PRODUCER},
                {"POST", "/ojs/v1/jobs/batch", PRODUCER},
                {"POST", "/ojs/v1/jobs/" + ID + "/activate", PRODUCER},
                {"DELETE", "/ojs/v1/jobs/" + ID, PRODUCER},
                {"GET", "/ojs/v1/jobs/" + ID, EnumSet.of(Role.PRODUCER, Role.READONLY, Role.ADMIN)},
                {"POST", "/ojs/v1/workflows", PRODUCER},
                {"DELETE", "/ojs/v1/workflows/" + ID, PRODUCER},
                {"GET", "/ojs/v1/workflows/" + ID, EnumSet.of(Role.PRODUCER, Role.READONLY, Role.ADMIN)},
                {"POST", "/ojs/v1/workflows/" + ID + "/cancel", ADMIN},
                {"POST", "/ojs/v1/workers/fetch", WORKER},
                {"POST", "/ojs/v1/workers/ack", WORKER},
                {"POST", "/ojs/v1/workers/ack/batch", WORKER},
                {"POST", "/ojs/v1/workers/nack", WORKER},
                {"POST", "/ojs/v1/jobs/" + ID + "/ack", WORKER},
                {"POST", "/ojs/v1/jobs/" + ID + "/nack", WORKER},
                {"POST", "/ojs/v1/workers/heartbeat", WORKER},
                {"POST", "/ojs/v1/workers/snooze", WORKER},
                {"GET", "/ojs/v1/queues", READ},
                {"GET", "/ojs/v1/events", READ},
                {"GET", "/ojs/v1/events/stream", READ},
                {"GET", "/ojs/v1/dead-letter", READ},
                {"GET", "/ojs/v1/dead-letter/stats", READ},
                {"GET", "/ojs/v1/admin/queues", READ},
                {"HEAD", "/ojs/v1/queues", READ},
                {"POST", "/ojs/v1/queues/q/pause", ADMIN},
                {"POST", "/ojs/v1/queues/q/resume", ADMIN},
                {"POST", "/ojs/v1/dead-letter/" + ID + "/retry", ADMIN},
                {"DELETE", "/ojs/v1/dead-letter/" + ID, ADMIN},
                {"POST", "/ojs/v1/dead-letter/delete", ADMIN},
                {"DELETE", "/ojs/v1/dead-letter", ADMIN},
                {"POST", "/ojs/v1/admin/reset", ADMIN},
                {"POST", "/ojs/v1/admin/workers/w1/terminate", ADMIN},
                {"DELETE", "/ojs/v1/admin/jobs/" + ID, ADMIN},
                {"GET", "/ojs/v1/cron", READ},
                {"GET", "/ojs/v1/cron/nightly", READ},
                {"POST", "/ojs/v1/cron", ADMIN},
                {"DELETE", "/ojs/v1/cron/nightly", ADMIN},
                {"POST", "/ojs/v1/cron/nightly/pause", ADMIN},
                // unknown or oddly spelled routes are closed to all but admin
                {"POST", "/ojs/v1/workers/fetch/", ADMIN},
                {"POST", "/ojs/v1/workers/other", ADMIN},
                {"PUT", "/ojs/v1/jobs", ADMIN},
                {"DELETE", "/ojs/v1/jobs/batch", ADMIN},
                {"POST", "/ojs/v1/jobs/a%2Factivate", ADMIN},
                {"PATCH", "/ojs/v1/jobs/" + ID, ADMIN},
        };
        for (Object[] row : table) {
            assertEquals(row[2], ApiAccess.allowed((String) row[0], (String) row[1]), row[0] + " " + row[1]);
        }
    }

    @Test
    void onlyTheManifestAndHealthArePublic() {
        assertTrue(ApiAccess.isPublic("GET", "/ojs/manifest"));
        assertTrue(ApiAccess.isPublic("GET", "/ojs/v1/health"));
        assertFalse(ApiAccess.isPublic("POST", "/ojs/manifest"));
        assertFalse(ApiAccess.isPublic("GET", "/ojs/v1/queues"));
        assertFalse(ApiAccess.isPublic("GET", "/ojs/v1/health/"));
    }

    @Test
    void tokensAreMatchedByTheirHashOnly() {
        String hex = HexFormat.of().formatHex(ApiTokens.sha256("s3cret"));
        ApiTokens t = ApiTokens.parse(Map.of("ops", "admin, readonly:sha256:" + hex.toUpperCase(),
                "w", "worker:sha256:" + "0".repeat(64)));
        assertEquals("ops", t.find("s3cret").name());
        assertEquals(EnumSet.of(Role.ADMIN, Role.READONLY), t.find("s3cret").roles());
        assertNull(t.find("s3cret "));
        assertNull(t.find(hex));
        assertNull(t.find(""));
        assertNull(t.find(null));
    }

    @Test
    void aMalformedTokenLineNamesTheTokenNotItsValue() {
        var bad = assertThrows(IllegalArgumentException.class,
                () -> ApiTokens.parse(Map.of("ci", "worker:md5:abcd")));
        assertTrue(bad.getMessage().contains("\"ci\""), bad.getMessage());
        var role = assertThrows(IllegalArgumentException.class,
                () -> ApiTokens.parse(Map.of("ci", "root:sha256:" + "a".repeat(64))));
        assertTrue(role.getMessage().contains("unknown role 'root'"), role.getMessage());
    }

    @Test
    void onlyBearerHeadersCarryAToken() {
        assertEquals("abc", ApiAuth.bearer("Bearer abc"));
        assertEquals("abc", ApiAuth.bearer("bearer  abc "));
        assertNull(ApiAuth.bearer("Basic YWxhZGRpbjpvcGVuc2VzYW1l"));
        assertNull(ApiAuth.bearer("Bearer"));
        assertNull(ApiAuth.bearer("Bearer a b"));
    }

    static AuthConfig config(boolean enabled, Map<String, String> tokens) {
        Object failureLog = java.lang.reflect.Proxy.newProxyInstance(ApiAccessTest.class.getClassLoader(),
                new Class<?>[] {AuthConfig.FailureLog.class},
                (p, m, a) -> m.getName().equals("lines") ? (Object) 10 : java.time.Duration.ofMinutes(1));
        return (AuthConfig) java.lang.reflect.Proxy.newProxyInstance(ApiAccessTest.class.getClassLoader(),
                new Class<?>[] {AuthConfig.class},
                (p, m, a) -> m.getName().equals("enabled") ? enabled
                        : m.getName().equals("failureLog") ? failureLog : tokens);
    }

    @Test
    void authenticationOnWithoutATokenRefusesToStartAndSaysWhatToSet() {
        var e = assertThrows(IllegalStateException.class, () -> new ApiAuth(config(true, Map.of()), null));
        assertTrue(e.getMessage().contains("steadfast.auth.tokens") && e.getMessage().contains("quarkus-run.jar token --role")
                && e.getMessage().contains("steadfast.auth.enabled=false"), e.getMessage());
        assertFalse(new ApiAuth(config(false, Map.of()), null).enabled(), "off only when configured off");
        assertTrue(new ApiAuth(config(true, Map.of("a", "admin:sha256:" + "0".repeat(64))), null).enabled());
    }
}
