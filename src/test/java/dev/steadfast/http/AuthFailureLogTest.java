package dev.steadfast.http;

import static dev.steadfast.testsupport.Api.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Profiles;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.Level;
import org.junit.jupiter.api.Test;

/**
 * Failed authentications (401 and 403) are logged at WARN with the reason, the route template and the client's
 * address, never the token; a flood gets only the window's budget of lines (3 here, in a window longer than the
 * test). The budget's arithmetic across windows is {@link LogBudgetTest}'s.
 */
@QuarkusTest
@TestProfile(Profiles.Tokens.class)
class AuthFailureLogTest {

    static final class Capture extends Handler {
        final List<LogRecord> records = new CopyOnWriteArrayList<>();

        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        List<String> warnings() {
            return records.stream().filter(r -> r.getLevel() == Level.WARN)
                    .map(r -> r instanceof ExtLogRecord e ? e.getFormattedMessage() : r.getMessage())
                    .filter(m -> m.startsWith("failed authentication")).toList();
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private static final String ID = "019a0000-0000-7000-8000-00000000abcd";
    private static final String UNKNOWN = "stf_this-token-is-not-configured-9f8e7d";
    private static final String FROM_LOCAL = ".* from (127\\.0\\.0\\.1|0:0:0:0:0:0:0:1|::1)$";

    @Inject
    TestClock clock;

    @Test
    void failuresAreLoggedWithRouteAndAddressWithoutTheTokenAndAFloodIsBudgeted() {
        // The profile's other classes may have spent this window's lines (3 an hour): an hour later a new window
        // begins, whose first line says how many were left out before; another hour later the window the test reads
        // begins with nothing left out.
        clock.set(clock.furthest().plus(Duration.ofHours(2)));
        request().get("/ojs/v1/queues").then().statusCode(401);
        clock.advance(Duration.ofHours(2));
        Capture capture = new Capture();
        Logger log = Logger.getLogger(ApiAuth.class.getName());
        log.addHandler(capture);
        try {
            request().header("Authorization", "Bearer " + ApiAuthTest.PRODUCER)
                    .post("/ojs/v1/admin/queues/billing/pause").then().statusCode(403);
            request().header("Authorization", "Bearer " + UNKNOWN).post("/ojs/v1/jobs/" + ID + "/activate")
                    .then().statusCode(401);
            request().get("/ojs/v1/queues").then().statusCode(401);
            for (int i = 0; i < 40; i++) {
                request().header("Authorization", "Bearer " + UNKNOWN).get("/ojs/v1/jobs/" + ID).then().statusCode(401);
            }
            List<String> lines = capture.warnings();
            assertEquals(3, lines.size(), () -> "the window's budget, not one line per request: " + lines);
            assertTrue(lines.get(0).startsWith("failed authentication: 403 permission_denied (token 'producer'")
                    && lines.get(0).contains(" on POST /ojs/v1/admin/queues/{name}/pause from "), lines.get(0));
            assertEquals("failed authentication: 401 unauthenticated (unknown token) on POST"
                    + " /ojs/v1/jobs/{id}/activate from", lines.get(1).substring(0, lines.get(1).lastIndexOf(" ")));
            assertTrue(lines.get(2).contains("(no Authorization header) on GET /ojs/v1/queues from "), lines.get(2));
            for (String l : lines) {
                assertTrue(l.matches(FROM_LOCAL), l);
                assertFalse(l.contains(UNKNOWN) || l.contains(ApiAuthTest.PRODUCER) || l.contains(ID), l);
            }
        } finally {
            log.removeHandler(capture);
        }
    }
}
