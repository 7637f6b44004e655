package dev.steadfast.webhooks;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Webhook subscriptions over HTTP (ojs-webhooks 6 and 10): create, list, get, update, delete, rotate-secret; the
 * secret shown once; every bad input refused with the envelope naming its field and nothing stored; private targets
 * refused (the test profile lets 127.0.0.0/8 through, nothing else); tenants see only their own subscriptions.
 */
@QuarkusTest
class WebhookApiTest {

    static final String SUBS = "/ojs/v1/webhooks/subscriptions";

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Response create(Object body) {
        return send(body).post(SUBS);
    }

    @Test
    void aSubscriptionIsCreatedReadChangedAndDeletedAndItsSecretIsShownOnce() {
        Response created = create(obj("url", "https://hooks.example.com/ojs", "events", arr("job.completed", "job.*"),
                "secret", "whk_test_secret_001", "filter", obj("queues", arr("payments")),
                "metadata", obj("owner", "platform")));
        assertEquals(201, created.statusCode(), created.asString());
        String id = path(created, "subscription.id");
        assertTrue(id.matches("^sub_[0-9a-f-]{36}$"), id);
        assertEquals(SUBS + "/" + id, java.net.URI.create(created.header("Location")).getPath());
        assertEquals("whk_test_secret_001", path(created, "subscription.secret"));
        assertEquals(true, path(created, "subscription.active"));
        assertEquals(List.of("payments"), path(created, "subscription.filter.queues"));
        assertEquals(30000, (Integer) path(created, "subscription.timeout_ms"));

        Response got = request().get(SUBS + "/" + id);
        assertEquals(200, got.statusCode());
        assertNull(path(got, "subscription.secret"), "the secret is never read back");
        assertEquals("platform", path(got, "subscription.metadata.owner"));
        assertEquals(List.of("job.completed", "job.*"), path(got, "subscription.events"));

        Response listed = request().get(SUBS);
        assertEquals(List.of(id), path(listed, "subscriptions.id"));
        assertNull(path(listed, "subscriptions[0].secret"));

        Response patched = send(obj("events", arr("job.completed", "job.failed", "job.cancelled"), "active", false,
                "filter", null)).patch(SUBS + "/" + id);
        assertEquals(200, patched.statusCode(), patched.asString());
        assertEquals(3, ((List<?>) path(patched, "subscription.events")).size());
        assertEquals(false, path(patched, "subscription.active"));
        assertNull(path(patched, "subscription.filter"), "a null filter clears it");
        assertEquals("https://hooks.example.com/ojs", path(patched, "subscription.url"), "unchanged");

        assertEquals(200, request().delete(SUBS + "/" + id).statusCode());
        assertError(request().get(SUBS + "/" + id), 404, "not_found");
        assertError(request().delete(SUBS + "/" + id), 404, "not_found");
    }

    @Test
    void aSecretLeftOutIsGeneratedAndARotationShowsTheNewOneWhileTheOldStillSigns() {
        Response created = create(obj("url", "https://hooks.example.com/a", "events", arr("*")));
        String secret = path(created, "subscription.secret");
        assertTrue(secret.startsWith("whsec_") && secret.length() > 40, secret);
        String id = path(created, "subscription.id");
        Response rotated = request().post(SUBS + "/" + id + "/rotate-secret");
        assertEquals(200, rotated.statusCode(), rotated.asString());
        String next = path(rotated, "subscription.secret");
        assertNotEquals(secret, next);
        assertNotNull(path(rotated, "subscription.previous_secret_expires_at"));
        assertNull(path(request().get(SUBS + "/" + id), "subscription.secret"));
        assertError(request().post(SUBS + "/sub_019539a4-b68c-7def-8000-aabbccddeeff/rotate-secret"), 404,
                "not_found");
    }

    static List<Arguments> badBodies() {
        return List.of(
                Arguments.of(obj("events", arr("job.completed")), "url"),
                Arguments.of(obj("url", "https://a.example.com"), "events"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr()), "events"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("job.completed", "Job Done")),
                        "events[1]"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("job.**")), "events[0]"),
                Arguments.of(obj("url", "https://a.example.com", "events", "job.completed"), "events"),
                Arguments.of(obj("url", "ftp://a.example.com/x", "events", arr("*")), "url"),
                Arguments.of(obj("url", "not a url", "events", arr("*")), "url"),
                Arguments.of(obj("url", "https://user:pw@a.example.com/", "events", arr("*")), "url"),
                Arguments.of(obj("url", "https://10.0.0.7/hook", "events", arr("*")), "url"),
                Arguments.of(obj("url", "https://169.254.169.254/latest/meta-data", "events", arr("*")), "url"),
                Arguments.of(obj("url", "https://192.168.1.20/hook", "events", arr("*")), "url"),
                Arguments.of(obj("url", "https://[::1]/hook", "events", arr("*")), "url"),
                Arguments.of(obj("url", "https://[::ffff:10.0.0.1]/hook", "events", arr("*")), "url"),
                Arguments.of(obj("url", "https://0.0.0.0/hook", "events", arr("*")), "url"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("*"), "timeout_ms", 500), "timeout_ms"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("*"), "timeout_ms", 60001),
                        "timeout_ms"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("*"), "secret", "short"), "secret"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("*"), "secret", 12), "secret"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("*"), "metadata", arr()), "metadata"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("*"), "active", "yes"), "active"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("*"), "fliter", obj()), "fliter"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("*"), "filter",
                        obj("queue", arr("a"))), "filter.queue"),
                Arguments.of(obj("url", "https://a.example.com", "events", arr("*"), "filter",
                        obj("queues", arr(""))), "filter.queues[0]"),
                Arguments.of(obj("url", "https://a.example.com/\u0000", "events", arr("*")), "url"));
    }

    @ParameterizedTest
    @MethodSource("badBodies")
    void aBadSubscriptionIs400NamingItsFieldAndNothingIsStored(Map<String, Object> body, String field) {
        Map<String, Object> e = assertError(create(body), 400, "invalid_request");
        assertEquals(field, detailField(e), e.toString());
        assertEquals(List.of(), path(request().get(SUBS), "subscriptions"));
    }

    @Test
    void malformedBodiesCursorsAndChangesAreRefusedWithTheEnvelope() {
        assertError(send("{\"url\": ").post(SUBS), 400, "invalid_payload");
        assertError(send("[]").post(SUBS), 400, "invalid_payload");
        String id = path(create(obj("url", "https://a.example.com/h", "events", arr("job.completed"))), "subscription.id");
        Map<String, Object> e = assertError(send(obj("secret", "whk_another_secret_1")).patch(SUBS + "/" + id), 400,
                "invalid_request");
        assertEquals("secret", detailField(e));
        e = assertError(send(obj("url", "https://172.16.0.1/")).patch(SUBS + "/" + id), 400, "invalid_request");
        assertEquals("url", detailField(e));
        assertEquals("https://a.example.com/h", path(request().get(SUBS + "/" + id), "subscription.url"),
                "a refused change changes nothing");
        assertError(request().get(SUBS + "?cursor=nope"), 400, "invalid_request");
        assertError(request().get(SUBS + "?limit=0"), 400, "invalid_request");
        assertError(request().get(SUBS + "/not-a-subscription"), 404, "not_found");
        assertError(send(obj("active", true)).patch(SUBS + "/sub_019539a4-b68c-7def-8000-aabbccddeeff"), 404,
                "not_found");
        assertError(request().get("/ojs/v1/webhooks/deliveries?state=lost"), 400, "invalid_request");
        assertError(request().get("/ojs/v1/webhooks/deliveries?cursor=x%00y"), 400, "invalid_request");
        assertError(request().get("/ojs/v1/webhooks/deliveries/del_nope"), 404, "not_found");
        assertError(request().post("/ojs/v1/webhooks/deliveries/del_019539a4-b68c-7def-8000-aabbccddeeff/retry"),
                404, "not_found");
    }

    @Test
    void localhostIsAllowedOnlyThroughTheConfiguredRange() {
        // the test profile allows 127.0.0.0/8 (steadfast.webhooks.allowed-private-ranges); ::1 is outside it
        assertEquals(201, create(obj("url", "http://localhost:9/h", "events", arr("*"))).statusCode());
        assertEquals(201, create(obj("url", "http://127.0.0.1:9/h", "events", arr("*"))).statusCode());
        assertError(create(obj("url", "http://[::1]:9/h", "events", arr("*"))), 400, "invalid_request");
    }

    @Test
    void aTenantSeesAndChangesOnlyItsOwnSubscriptions() {
        String a = path(send(obj("url", "https://a.example.com/h", "events", arr("*"))).header("X-OJS-Tenant", "acme")
                .post(SUBS), "subscription.id");
        String b = path(send(obj("url", "https://b.example.com/h", "events", arr("*"))).header("X-OJS-Tenant", "globex")
                .post(SUBS), "subscription.id");
        assertEquals("acme", path(request().get(SUBS + "/" + a), "subscription.tenant_id"));
        assertEquals(List.of(a), path(request().header("X-OJS-Tenant", "acme").get(SUBS), "subscriptions.id"));
        assertEquals(List.of(a, b), path(request().get(SUBS), "subscriptions.id"), "no tenant: every one");
        assertError(request().header("X-OJS-Tenant", "acme").get(SUBS + "/" + b), 404, "not_found");
        assertError(send(obj("active", false)).header("X-OJS-Tenant", "acme").patch(SUBS + "/" + b), 404,
                "not_found");
        assertError(request().header("X-OJS-Tenant", "acme").delete(SUBS + "/" + b), 404, "not_found");
        assertEquals(true, path(request().get(SUBS + "/" + b), "subscription.active"));
        assertError(request().header("X-OJS-Tenant", "bad tenant").get(SUBS), 400, "invalid_request");
    }

    @Test
    void pagesFollowEachOtherInCreationOrder() {
        for (int i = 0; i < 5; i++) {
            create(obj("url", "https://a.example.com/" + i, "events", arr("*"))).then().statusCode(201);
        }
        Response first = request().get(SUBS + "?limit=2");
        List<String> urls = new java.util.ArrayList<>(path(first, "subscriptions.url"));
        String cursor = path(first, "next_cursor");
        while (cursor != null) {
            Response next = request().get(SUBS + "?limit=2&cursor=" + cursor);
            urls.addAll(path(next, "subscriptions.url"));
            cursor = path(next, "next_cursor");
        }
        assertEquals(List.of("https://a.example.com/0", "https://a.example.com/1", "https://a.example.com/2",
                "https://a.example.com/3", "https://a.example.com/4"), urls);
        assertFalse(urls.isEmpty());
    }
}
