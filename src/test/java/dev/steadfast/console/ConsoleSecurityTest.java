package dev.steadfast.console;

import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.state;
import static dev.steadfast.testsupport.Console.SESSION;
import static dev.steadfast.testsupport.Console.anonymous;
import static dev.steadfast.testsupport.Console.postWith;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.console.auth.LoginPage;
import dev.steadfast.console.auth.Session;
import dev.steadfast.console.auth.SessionCodec;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Console;
import dev.steadfast.testsupport.JobsInState;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Login, sessions and CSRF: every console page needs a logged-in session (login is on in the test profile),
 * every POST needs the session's CSRF token, and neither a forged, tampered or expired cookie nor a missing
 * token changes anything.
 */
@QuarkusTest
class ConsoleSecurityTest {

    @Inject
    TestClock clock;

    @Inject
    SessionCodec codec;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void everyPageRedirectsToLoginWithoutASession() {
        for (String path : List.of("/admin", "/admin/queues", "/admin/jobs?state=retryable", "/admin/dead-letter",
                "/admin/workers", "/admin/overview/live", "/admin/jobs/" + Api.newUuidV7())) {
            Response r = anonymous().get(path);
            assertEquals(303, r.statusCode(), path);
            assertTrue(r.header("Location").contains("/admin/login?next="), r.header("Location"));
        }
        String q = anonymous().get("/admin/jobs?state=retryable").header("Location");
        assertTrue(q.endsWith("next=%2Fadmin%2Fjobs%3Fstate%3Dretryable"), q);
    }

    @Test
    void theServersRootLeadsToTheConsoleAndItsLogin() {
        Response root = anonymous().get("/");
        assertEquals(303, root.statusCode(), root::asString);
        assertTrue(root.header("Location").endsWith("/admin"), root.header("Location"));
        Response admin = anonymous().get(root.header("Location"));
        assertEquals(303, admin.statusCode());
        assertTrue(admin.header("Location").contains("/admin/login"), admin.header("Location"));
    }

    @Test
    void loginStartsASessionAndLogoutEndsIt() {
        Response form = anonymous().get("/admin/login?next=/admin/queues");
        assertEquals(200, form.statusCode());
        String anon = form.getCookie(SESSION);
        String cookieHeader = form.header("Set-Cookie");
        assertTrue(cookieHeader.contains("HttpOnly") && cookieHeader.contains("SameSite=Strict")
                && cookieHeader.contains("Path=/admin") && cookieHeader.contains("Max-Age="), cookieHeader);
        String token = Console.token(form.asString());

        Response wrong = postWith(anonymous().cookie(SESSION, anon), token, "/admin/login", "username", "admin",
                "password", "nope", "next", "/admin/queues");
        assertEquals(401, wrong.statusCode());
        assertTrue(wrong.asString().contains("Wrong user name or password."));
        assertEquals(null, wrong.getCookie(SESSION), "no session for a failed login");

        Response ok = postWith(anonymous().cookie(SESSION, anon), token, "/admin/login", "username", "admin",
                "password", "test-password", "next", "/admin/queues");
        assertEquals(303, ok.statusCode());
        assertTrue(ok.header("Location").endsWith("/admin/queues"));
        String session = ok.getCookie(SESSION);
        assertNotNull(session);
        assertFalse(codec.decode(session, clock.instant()).get().csrf().equals(token), "a new token after login");
        String page = anonymous().cookie(SESSION, session).get("/admin/queues").asString();
        assertTrue(page.contains("Log out"));

        String newToken = Console.token(page);
        Response out = postWith(anonymous().cookie(SESSION, session), newToken, "/admin/logout");
        assertEquals(303, out.statusCode());
        assertTrue(out.header("Set-Cookie").contains(SESSION + "=;"), out.headers().toString());
    }

    @Test
    void loginNeverRedirectsAwayFromTheConsole() {
        for (String next : List.of("https://evil.example/", "//evil.example/admin", "/ojs/v1/jobs", "/admin\\@evil")) {
            Response form = anonymous().get("/admin/login");
            Response ok = postWith(anonymous().cookie(SESSION, form.getCookie(SESSION)), Console.token(form.asString()),
                    "/admin/login", "username", "admin", "password", "test-password", "next", next);
            assertEquals(303, ok.statusCode());
            assertTrue(ok.header("Location").endsWith("/admin"), next + " -> " + ok.header("Location"));
        }
        assertEquals("/admin/jobs?q=x", LoginPage.safe("/admin/jobs?q=x"));
    }

    @Test
    void forgedTamperedAndExpiredSessionsAreNoSessions() {
        String good = Console.session();
        String tampered = good.substring(0, good.length() - 3) + (good.endsWith("AAA") ? "BBB" : "AAA");
        String forged = codec.encode(new Session("admin", "t", clock.instant().plusSeconds(60)))
                .replaceFirst("\\..*", ".c2lnbmF0dXJl");
        String expired = codec.encode(new Session("admin", "t", clock.instant().minusSeconds(1)));
        String otherUser = codec.encode(new Session("mallory", "t", clock.instant().plusSeconds(60)));
        for (String cookie : List.of(tampered, forged, expired, otherUser, "garbage", "")) {
            assertEquals(303, anonymous().cookie(SESSION, cookie).get("/admin").statusCode(), cookie);
        }
        assertEquals(200, anonymous().cookie(SESSION, good).get("/admin").statusCode());
    }

    @Test
    void postsWithoutTheSessionsTokenChangeNothing() {
        String id = JobsInState.retryable("sec-q", "x.y", "E", "later");
        String session = Console.session();
        String[][] attempts = {{session, null}, {session, "wrong-token"}, {session, ""}, {null, Console.csrf()}};
        for (String[] a : attempts) {
            var r = a[0] == null ? anonymous() : anonymous().cookie(SESSION, a[0]);
            Response retry = postWith(r, a[1], "/admin/jobs/" + id + "/actions/retry", "confirm", "yes");
            assertEquals(403, retry.statusCode(), retry::asString);
            assertTrue(retry.contentType().startsWith("text/html"));
        }
        var r = anonymous().cookie(SESSION, session);
        assertEquals(403, postWith(r, null, "/admin/queues/sec-q/pause").statusCode());
        assertEquals(403, postWith(anonymous().cookie(SESSION, session), null, "/admin/dead-letter/bulk",
                "op", "delete-matching", "confirm", "yes").statusCode());
        assertEquals(403, postWith(anonymous().cookie(SESSION, session), null, "/admin/logout").statusCode());
        assertEquals(403, anonymous().cookie(SESSION, session).contentType("application/json")
                .body("{\"_csrf\":\"" + Console.csrf() + "\",\"confirm\":\"yes\"}")
                .post("/admin/jobs/" + id + "/actions/retry").statusCode(), "only forms carry the token");
        assertEquals("retryable", state(id));
        assertEquals(Boolean.FALSE, path(Api.request().get("/ojs/v1/admin/queues/sec-q"), "paused"));
        assertEquals(303, Console.post("/admin/jobs/" + id + "/actions/retry", "confirm", "yes").statusCode());
        assertEquals("available", state(id));
    }

    @Test
    void theApiIsUntouchedByTheConsolesGuard() {
        String id = enqueue("x.y", "api-q");
        Api.request().post("/ojs/v1/queues/api-q/pause").then().statusCode(200);
        Api.request().post("/ojs/v1/admin/jobs/" + id + "/cancel").then().statusCode(200);
    }
}
