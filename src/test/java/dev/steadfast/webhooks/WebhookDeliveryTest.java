package dev.steadfast.webhooks;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.store.webhooks.AttemptRecord;
import dev.steadfast.store.webhooks.ClaimedDelivery;
import dev.steadfast.store.webhooks.NewDelivery;
import dev.steadfast.store.webhooks.WebhookStore;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JsonPaths;
import dev.steadfast.testsupport.TestClock;
import dev.steadfast.testsupport.WebhookReceiver.Answer;
import dev.steadfast.testsupport.WebhookReceiver.Received;
import dev.steadfast.testsupport.WebhookReceiver;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Webhook deliveries against a real HTTP receiver started by the test (ojs-webhooks 5.3, 7 and 8): the spec's
 * headers and a signature the test recomputes itself; retries on the schedule under one delivery id; 4xx dead at
 * once, 410 also switching the subscription off; a slow receiver and one that hangs up retried; the final dead state
 * after the last attempt; both secrets signing during a rotation; retry now; the test route; tenants; and the lease
 * that keeps a delivery with one instance at a time.
 */
@QuarkusTest
class WebhookDeliveryTest {

    static final String SUBS = "/ojs/v1/webhooks/subscriptions";
    static final String DELIVERIES = "/ojs/v1/webhooks/deliveries";
    static final String SECRET = "whk_test_secret_0001";
    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    TestClock clock;

    @Inject
    WebhookDispatcher dispatcher;

    @Inject
    WebhookStore store;

    @Inject
    Scheduler scheduler;

    @Inject
    WebhookPruner pruner;

    WebhookReceiver receiver;

    @BeforeEach
    void start() throws Exception {
        Api.reset();
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stop() {
        receiver.close();
    }

    String subscribe(Map<String, Object> extra) {
        Map<String, Object> body = new java.util.LinkedHashMap<>(obj("url", receiver.url("/hook"), "secret", SECRET));
        body.putAll(extra);
        Response r = send(body).post(SUBS);
        assertEquals(201, r.statusCode(), r.asString());
        return path(r, "subscription.id");
    }

    static Map<String, Object> only(String subscription) {
        List<Map<String, Object>> all = path(request().get(DELIVERIES + "?subscription_id=" + subscription), "deliveries");
        assertEquals(1, all.size(), all.toString());
        return all.get(0);
    }

    static Map<String, Object> awaitDelivery(String subscription, java.util.function.Predicate<Map<String, Object>> p) {
        return Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    List<Map<String, Object>> all = path(request().get(DELIVERIES + "?subscription_id=" + subscription), "deliveries");
                    return all.size() == 1 && p.test(all.get(0)) ? all.get(0) : null;
                }, d -> d != null);
    }

    static String hmac(String secret, String timestamp, String body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal((timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
    }

    void completeJobIn(String queue, String tenant) {
        Map<String, Object> job = obj("type", "wh.job", "args", arr(1), "options", obj("queue", queue));
        io.restassured.specification.RequestSpecification r = send(job);
        if (tenant != null) {
            r = r.header("X-OJS-Tenant", tenant);
        }
        r.post(Api.JOBS).then().statusCode(201);
        String id = Api.fetchOne("wh-worker", queue);
        Api.ack(id).then().statusCode(200);
    }

    @Test
    void aCompletedJobIsPostedWithTheSpecHeadersAndAValidSignature() throws Exception {
        String sub = subscribe(obj("events", arr("job.completed"), "filter", obj("queues", arr("wh-a"))));
        completeJobIn("wh-b", null); // another queue: filtered out
        completeJobIn("wh-a", null);
        Map<String, Object> d = awaitDelivery(sub, x -> "delivered".equals(x.get("state")));
        assertEquals(1, d.get("attempts"));
        assertEquals(200, d.get("last_status_code"));
        List<Received> got = receiver.received();
        assertEquals(1, got.size(), "only the wh-a job's completion");
        Received r = got.get(0);
        assertEquals("/hook", r.path());
        assertEquals("application/json", r.header("Content-Type"));
        assertTrue(r.header("User-Agent").startsWith("OJS-Webhook/1.0"), r.header("User-Agent"));
        assertEquals("job.completed", r.header("X-OJS-Event-Type"));
        assertEquals(d.get("id"), r.header("X-OJS-Delivery-ID"));
        assertEquals(sub, r.header("X-OJS-Subscription-ID"));
        String ts = r.header("X-OJS-Timestamp");
        assertTrue(Math.abs(Long.parseLong(ts) - Instant.now().getEpochSecond()) < 60, ts);
        assertEquals("sha256=" + hmac(SECRET, ts, r.body()), r.header("X-OJS-Signature"));
        JsonNode event = JSON.readTree(r.body());
        assertEquals("1.0", event.get("specversion").asText());
        assertEquals("job.completed", event.get("type").asText());
        assertEquals("wh-a", event.get("data").get("queue").asText());
        assertEquals(d.get("event_id"), event.get("id").asText());
        Response one = request().get(DELIVERIES + "/" + d.get("id"));
        assertEquals("job.completed", path(one, "delivery.event.type"));
    }

    @Test
    void aFailedAttemptIsRetriedOnTheScheduleUnderTheSameDeliveryId() {
        receiver.behave(n -> n == 1 ? Answer.status(503) : Answer.status(204));
        String sub = subscribe(obj("events", arr("job.enqueued")));
        Api.enqueue("wh.retry", "wh-retry");
        Map<String, Object> first = awaitDelivery(sub, x -> x.get("last_status_code") != null);
        assertEquals("pending", first.get("state"));
        assertEquals(1, first.get("attempts"));
        assertEquals("HTTP 503", first.get("last_error"));
        Instant last = Instant.parse((String) first.get("last_attempt_at"));
        Instant next = Instant.parse((String) first.get("next_attempt_at"));
        assertEquals(Duration.ofSeconds(30), Duration.between(last, next), "the spec's second attempt: 30 s");

        clock.advance(Duration.ofSeconds(31));
        dispatcher.runOnce(clock.instant()).await().indefinitely();
        Map<String, Object> done = awaitDelivery(sub, x -> "delivered".equals(x.get("state")));
        assertEquals(2, done.get("attempts"));
        List<Received> got = receiver.received();
        assertEquals(2, got.size());
        assertEquals(got.get(0).header("X-OJS-Delivery-ID"), got.get(1).header("X-OJS-Delivery-ID"));
        assertEquals(got.get(0).body(), got.get(1).body(), "every attempt sends the same bytes");
    }

    @Test
    void aClientErrorIsDeadAtOnceAndGoneAlsoSwitchesTheSubscriptionOff() {
        receiver.behave(n -> Answer.status(400));
        String bad = subscribe(obj("events", arr("job.enqueued"), "filter", obj("queues", arr("wh-400"))));
        Api.enqueue("wh.x", "wh-400");
        Map<String, Object> d = awaitDelivery(bad, x -> "dead".equals(x.get("state")));
        assertEquals(1, d.get("attempts"), "a 4xx is not retried");
        assertNotNull(d.get("finished_at"));
        assertEquals(true, path(request().get(SUBS + "/" + bad), "subscription.active"));

        receiver.behave(n -> Answer.status(410));
        String gone = subscribe(obj("events", arr("job.enqueued"), "filter", obj("queues", arr("wh-410"))));
        Api.enqueue("wh.x", "wh-410");
        awaitDelivery(gone, x -> "dead".equals(x.get("state")));
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(
                () -> Boolean.FALSE.equals(path(request().get(SUBS + "/" + gone), "subscription.active")));
    }

    @Test
    void aRateLimitedAttemptWaitsForRetryAfter() {
        receiver.behave(n -> new Answer(429, 0, false, Map.of("Retry-After", "120")));
        String sub = subscribe(obj("events", arr("job.enqueued")));
        Api.enqueue("wh.x", "wh-429");
        Map<String, Object> d = awaitDelivery(sub, x -> x.get("last_status_code") != null);
        assertEquals("pending", d.get("state"));
        assertEquals(Duration.ofSeconds(120), Duration.between(Instant.parse((String) d.get("last_attempt_at")),
                Instant.parse((String) d.get("next_attempt_at"))));
    }

    @Test
    void aSlowReceiverTimesOutAndOneThatHangsUpIsRetried() {
        receiver.behave(n -> Answer.slow(200, 3000));
        String slow = subscribe(obj("events", arr("job.enqueued"), "timeout_ms", 1000,
                "filter", obj("queues", arr("wh-slow"))));
        Api.enqueue("wh.x", "wh-slow");
        Map<String, Object> d = awaitDelivery(slow, x -> x.get("last_error") != null);
        assertEquals("pending", d.get("state"));
        assertNull(d.get("last_status_code"));
        assertTrue(((String) d.get("last_error")).contains("1000 ms"), (String) d.get("last_error"));

        receiver.behave(n -> Answer.hangUp());
        String hung = subscribe(obj("events", arr("job.enqueued"), "filter", obj("queues", arr("wh-hang"))));
        Api.enqueue("wh.x", "wh-hang");
        Map<String, Object> h = awaitDelivery(hung, x -> x.get("last_error") != null);
        assertEquals("pending", h.get("state"));
        assertNull(h.get("last_status_code"));
    }

    @Test
    void aDeliveryIsDeadAfterItsLastAttemptAndRetryNowStartsAgainUnderTheSameId() {
        receiver.behave(n -> Answer.status(500));
        String sub = subscribe(obj("events", arr("job.enqueued")));
        Api.enqueue("wh.x", "wh-dead");
        for (int attempt = 1; attempt < 8; attempt++) {
            int a = attempt;
            awaitDelivery(sub, x -> a == (Integer) x.get("attempts") && x.get("last_status_code") != null
                    && "pending".equals(x.get("state")));
            clock.advance(Duration.ofHours(25));
            dispatcher.runOnce(clock.instant()).await().indefinitely();
        }
        Map<String, Object> dead = awaitDelivery(sub, x -> "dead".equals(x.get("state")));
        assertEquals(8, dead.get("attempts"), "the spec's 8 attempts");
        assertEquals(8, receiver.received().size());

        receiver.behave(n -> Answer.status(200));
        Response retried = request().post(DELIVERIES + "/" + dead.get("id") + "/retry");
        assertEquals(200, retried.statusCode(), retried.asString());
        assertEquals("pending", path(retried, "delivery.state"));
        awaitDelivery(sub, x -> "delivered".equals(x.get("state")));
        List<Received> got = receiver.received();
        assertEquals(dead.get("id"), got.get(got.size() - 1).header("X-OJS-Delivery-ID"));
    }

    @Test
    void duringARotationBothSecretsSign() throws Exception {
        String sub = subscribe(obj("events", arr("job.enqueued")));
        String next = path(request().post(SUBS + "/" + sub + "/rotate-secret"), "subscription.secret");
        Api.enqueue("wh.x", "wh-rotate");
        awaitDelivery(sub, x -> "delivered".equals(x.get("state")));
        Received r = receiver.received().get(0);
        String ts = r.header("X-OJS-Timestamp");
        assertEquals("sha256=" + hmac(next, ts, r.body()) + ",sha256=" + hmac(SECRET, ts, r.body()),
                r.header("X-OJS-Signature"));
    }

    @Test
    void theTestRoutePostsAWebhookTestEventAndSaysWhatCameBack() throws Exception {
        String sub = subscribe(obj("events", arr("job.completed"), "active", false));
        Response t = request().post(SUBS + "/" + sub + "/test");
        assertEquals(200, t.statusCode(), t.asString());
        assertEquals(true, path(t, "success"));
        assertEquals(200, (Integer) path(t, "status_code"));
        assertEquals("answer 200", path(t, "response_body"));
        Received r = receiver.received().get(0);
        assertEquals("webhook.test", r.header("X-OJS-Event-Type"));
        assertEquals("webhook.test", JSON.readTree(r.body()).get("type").asText());
        assertEquals("sha256=" + hmac(SECRET, r.header("X-OJS-Timestamp"), r.body()), r.header("X-OJS-Signature"));

        receiver.behave(n -> Answer.status(500));
        Response failed = request().post(SUBS + "/" + sub + "/test");
        assertEquals(false, path(failed, "success"));
        assertEquals(500, (Integer) path(failed, "status_code"));
    }

    @Test
    void aTenantsSubscriptionGetsOnlyItsTenantsEvents() {
        String acme = path(send(obj("url", receiver.url("/acme"), "events", arr("job.completed")))
                .header("X-OJS-Tenant", "acme").post(SUBS), "subscription.id");
        String all = subscribe(obj("events", arr("job.completed")));
        completeJobIn("wh-t", "globex");
        completeJobIn("wh-t", null);
        completeJobIn("wh-t", "acme");
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received().size() == 4);
        List<Map<String, Object>> forAll = path(request().get(DELIVERIES + "?subscription_id=" + all), "deliveries");
        assertEquals(3, forAll.size());
        Map<String, Object> forAcme = only(acme);
        assertEquals(1, receiver.received().stream().filter(r -> r.path().equals("/acme")).count());
        assertEquals(List.of(forAcme.get("id")), path(request().header("X-OJS-Tenant", "acme").get(DELIVERIES), "deliveries.id"), "a tenant lists only its subscriptions' deliveries");
    }

    @Test
    void aDeliveryIsLeasedToOneInstanceAtATimeAndALateOutcomeChangesNothing() {
        scheduler.pause("webhook-dispatcher");
        try {
            receiver.behave(n -> Answer.status(200));
            String sub = subscribe(obj("events", arr("nothing.ever")));
            Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
            store.insertDeliveries(List.of(new NewDelivery("del_019539a4-b68c-7def-8000-aabbccddeeff", sub,
                    "evt_1", "job.completed", null, "{}")), now).await().indefinitely();
            List<ClaimedDelivery> a = store.claim(now, 10, 30_000, "instance-a").await().indefinitely();
            assertEquals(1, a.size());
            assertEquals(1, a.get(0).attempt());
            assertEquals(List.of(), store.claim(now, 10, 30_000, "instance-b").await().indefinitely(),
                    "leased to instance-a");
            Instant afterLease = now.plus(Duration.ofSeconds(61));
            List<ClaimedDelivery> b = store.claim(afterLease, 10, 30_000, "instance-b").await().indefinitely();
            assertEquals(1, b.size(), "instance-a's lease ended: it comes due again");
            assertEquals(2, b.get(0).attempt());
            // both answers in one statement, as the dispatcher gathers them: only the lease holder's is written
            assertEquals(List.of(false, true), store.recordAll(List.of(
                    new AttemptRecord(a.get(0).id(), "instance-a", 1, "dead", null, 500, "late", 5, afterLease),
                    new AttemptRecord(b.get(0).id(), "instance-b", 2, "delivered", null, 200, null, 5, afterLease)))
                    .await().indefinitely(), "instance-a's late answer is refused, instance-b's written");
            assertEquals("delivered", only(sub).get("state"));
        } finally {
            scheduler.resume("webhook-dispatcher");
        }
    }

    @Test
    void redirectsAreFollowedToAllowedTargetsOnlyAndTheSameBodyIsPostedAgain() {
        receiver.behave(n -> n == 1 ? new Answer(307, 0, false, Map.of("Location", "/moved")) : Answer.status(200));
        String sub = subscribe(obj("events", arr("job.enqueued"), "filter", obj("queues", arr("wh-307"))));
        Api.enqueue("wh.x", "wh-307");
        awaitDelivery(sub, x -> "delivered".equals(x.get("state")));
        List<Received> got = receiver.received();
        assertEquals(List.of("/hook", "/moved"), got.stream().map(Received::path).toList());
        assertEquals(got.get(0).body(), got.get(1).body());

        receiver.behave(n -> new Answer(302, 0, false, Map.of("Location", "http://10.0.0.1/inside")));
        String refused = subscribe(obj("events", arr("job.enqueued"), "filter", obj("queues", arr("wh-302"))));
        Api.enqueue("wh.x", "wh-302");
        Map<String, Object> d = awaitDelivery(refused, x -> "dead".equals(x.get("state")));
        assertTrue(((String) d.get("last_error")).contains("refused"), (String) d.get("last_error"));
    }

    @Test
    void finishedDeliveriesArePrunedAfterTheRetentionAndPendingOnesNever() {
        receiver.behave(n -> n == 1 ? Answer.status(200) : Answer.status(503));
        String sub = subscribe(obj("events", arr("job.enqueued")));
        Api.enqueue("wh.x", "wh-prune");
        awaitDelivery(sub, x -> "delivered".equals(x.get("state")));
        Api.enqueue("wh.x", "wh-prune");
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> JsonPaths.<List<?>>path(request().get(DELIVERIES + "?subscription_id="
                + sub + "&state=pending"), "deliveries").size() == 1
                && path(request().get(DELIVERIES + "?subscription_id=" + sub + "&state=pending"), "deliveries[0].last_status_code") != null);
        Instant now = clock.instant();
        assertEquals(0, pruner.runOnce(now.plus(Duration.ofDays(6))).await().indefinitely(), "within the 7 days");
        assertEquals(1, pruner.runOnce(now.plus(Duration.ofDays(8))).await().indefinitely());
        List<Map<String, Object>> left = path(request().get(DELIVERIES + "?subscription_id=" + sub), "deliveries");
        assertEquals(List.of("pending"), left.stream().map(x -> x.get("state")).toList());
    }
}
