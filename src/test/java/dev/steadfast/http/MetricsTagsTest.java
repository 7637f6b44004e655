package dev.steadfast.http;

import static dev.steadfast.testsupport.Api.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Profiles;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Nobody can blind the request metrics: unauthenticated requests and requests to paths no route has, each path
 * different, are tagged with one shared uri (UNKNOWN, NOT_FOUND), never their raw path, so Micrometer's uri tag
 * limit is never reached and the real routes are still recorded with their templates afterwards, their refusals
 * (400, 404) included.
 */
@QuarkusTest
@TestProfile(Profiles.Tokens.class)
class MetricsTagsTest {

    @Inject
    MeterRegistry registry;

    @Test
    void madeUpPathsShareOneTagAndRealRoutesAreStillRecorded() {
        for (int i = 0; i < 200; i++) {
            request().get("/ojs/v1/no-such-" + i).then().statusCode(401); // no token: refused before routing
            request().get("/ojs/v1/jobs/made-up-" + i + "/nowhere").then().statusCode(401);
            request().header("Authorization", "Bearer " + ApiAuthTest.ADMIN).get("/ojs/v1/nope-" + i)
                    .then().statusCode(404);
            request().get("/ojs/v1/jobs/019a0000-0000-7000-8000-00000000" + String.format("%04d", i))
                    .then().statusCode(401);
        }
        request().header("Authorization", "Bearer " + ApiAuthTest.PRODUCER).contentType("application/json")
                .body("{\"type\":\"metrics.tags\",\"args\":[],\"options\":{\"queue\":\"metrics-tags\"}}")
                .post("/ojs/v1/jobs").then().statusCode(201);
        request().header("Authorization", "Bearer " + ApiAuthTest.PRODUCER).contentType("application/json")
                .body("{\"type\":\"metrics.tags\"}").post("/ojs/v1/jobs").then().statusCode(400);
        request().header("Authorization", "Bearer " + ApiAuthTest.PRODUCER)
                .get("/ojs/v1/jobs/019a0000-0000-7000-8000-0000000000ff").then().statusCode(404);

        Set<String> uris = new TreeSet<>();
        for (Timer t : registry.find("http.server.requests").timers()) {
            uris.add(t.getId().getTag("uri"));
        }
        assertTrue(uris.stream().noneMatch(u -> u.contains("no-such") || u.contains("made-up") || u.contains("nope")
                || u.contains("019a0000")), "raw paths became tags: " + uris);
        // the flood above alone would make 800 tags; the routes other tests of this profile called make about 50
        assertTrue(uris.size() < 100, "one tag per route, not per path: " + uris);
        Timer push = registry.find("http.server.requests").tags("uri", "/ojs/v1/jobs", "method", "POST",
                "status", "201").timer();
        assertTrue(push != null && push.count() >= 1, "the real route is recorded with its template: " + uris);
        // one timer for every GET refused 401 on a made-up path (other tests of this profile may add POSTs etc.)
        var refused = registry.find("http.server.requests").tags("uri", "UNKNOWN", "status", "401", "method", "GET")
                .timers();
        assertEquals(1, refused.size(), uris.toString());
        assertTrue(refused.iterator().next().count() >= 600, "the flood's 600 refusals share the one tag");
        assertTrue(registry.find("http.server.requests").tags("uri", "/ojs/v1/jobs", "status", "400").timer() != null,
                "a refusal by a route without parameters keeps its template: " + uris);
        assertTrue(registry.find("http.server.requests").tags("uri", "/ojs/v1/jobs/{id}", "status", "404")
                .timer() != null, "a templated route's 404 keeps its template: " + uris);
    }
}
