package dev.steadfast.console;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.Console.flash;
import static dev.steadfast.testsupport.Console.get;
import static dev.steadfast.testsupport.Console.post;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.WebhookReceiver;
import dev.steadfast.testsupport.WebhookReceiver.Answer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's webhooks pages: the subscriptions with their deliveries counted by state, one subscription's
 * deliveries with their last attempt, and retry now sending a dead delivery again under its id.
 */
@QuarkusTest
class ConsoleWebhooksTest {

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

    static List<Map<String, Object>> deliveries(String sub) {
        return path(Api.request().get("/ojs/v1/webhooks/deliveries?subscription_id=" + sub), "deliveries");
    }

    @Test
    void thePagesShowSubscriptionsAndDeliveriesAndRetryNowSendsADeadOneAgain() {
        receiver.behave(n -> n == 1 ? Answer.status(422) : Answer.status(200));
        String sub = path(send(obj("url", receiver.url("/console"), "events", arr("job.enqueued"),
                "filter", obj("queues", arr("cw-q")))).post("/ojs/v1/webhooks/subscriptions"), "subscription.id");
        Api.enqueue("cw.job", "cw-q");
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> deliveries(sub).size() == 1
                && "dead".equals(deliveries(sub).get(0).get("state")));
        String delivery = (String) deliveries(sub).get(0).get("id");

        Response list = get("/admin/webhooks");
        assertEquals(200, list.statusCode());
        String html = list.asString();
        assertTrue(html.contains("href=\"/admin/webhooks/" + sub + "\""), html);
        assertTrue(html.contains(receiver.url("/console")));
        assertTrue(html.contains("queues cw-q"));

        String page = get("/admin/webhooks/" + sub).asString();
        assertTrue(page.contains(delivery), page);
        assertTrue(page.contains("HTTP 422"), "the last attempt's error");
        assertTrue(page.contains("action=\"/admin/webhooks/" + sub + "/deliveries/" + delivery + "/retry\""));
        assertTrue(page.contains("name=\"_csrf\""));

        Response retried = post("/admin/webhooks/" + sub + "/deliveries/" + delivery + "/retry");
        assertEquals(303, retried.statusCode(), retried.asString());
        assertTrue(flash(retried).contains(delivery), flash(retried));
        Awaitility.await().atMost(Duration.ofSeconds(15))
                .until(() -> "delivered".equals(deliveries(sub).get(0).get("state")));
        assertEquals(2, receiver.received().size());
        assertEquals(delivery, receiver.received().get(1).header("X-OJS-Delivery-ID"));

        assertEquals(404, get("/admin/webhooks/sub_019539a4-b68c-7def-8000-aabbccddeeff").statusCode());
    }
}
