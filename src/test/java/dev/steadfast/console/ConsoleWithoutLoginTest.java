package dev.steadfast.console;

import static dev.steadfast.testsupport.Console.SESSION;
import static dev.steadfast.testsupport.Console.anonymous;
import static dev.steadfast.testsupport.Console.postWith;
import static dev.steadfast.testsupport.JsonPaths.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Console;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With steadfast.console.auth-enabled=false (only by explicit configuration) pages need no login, but every
 * form still needs the CSRF token of the visitor's (anonymous) session: switching login off never opens the
 * console to cross-site requests.
 */
@QuarkusTest
@TestProfile(Profiles.Switches.class)
class ConsoleWithoutLoginTest {

    @Test
    void pagesOpenWithoutLoginButFormsStillNeedTheToken() {
        Api.reset();
        Api.enqueue("x.y", "open-q");
        Response page = anonymous().get("/admin/queues");
        assertEquals(200, page.statusCode());
        assertFalse(page.asString().contains("Log out"));
        assertEquals(303, anonymous().get("/admin/login").statusCode(), "no login page");
        String session = page.getCookie(SESSION);
        assertEquals(403, postWith(anonymous().cookie(SESSION, session), null, "/admin/queues/open-q/pause")
                .statusCode());
        assertEquals(403, postWith(anonymous(), "made-up", "/admin/queues/open-q/pause").statusCode());
        Response ok = postWith(anonymous().cookie(SESSION, session), Console.token(page.asString()),
                "/admin/queues/open-q/pause");
        assertEquals(303, ok.statusCode());
        assertEquals(List.of(), Api.fetchIds("w", 1, "open-q"));
        Api.request().get(Api.EVENTS + "?types=queue.paused").then()
                .body(at("events[0].data.paused_by", org.hamcrest.Matchers.equalTo("console")));
    }
}
