package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.LocalPostgres;
import dev.steadfast.testsupport.Parallel;
import dev.steadfast.testsupport.Parallel.Call;
import dev.steadfast.testsupport.WebhookReceiver;
import dev.steadfast.testsupport.WebhookReceiver.Answer;
import dev.steadfast.testsupport.WebhookReceiver.Received;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Webhook deliveries with two real server processes on one database of their own (two copies of the packaged jar,
 * allowed to reach a receiver on 127.0.0.1): jobs are completed on both instances, so both write delivery rows and
 * both dispatchers claim them, while the receiver fails every third request. Every completed job's event reaches
 * the receiver under one delivery id, and each delivery is answered 2xx exactly once: a delivery is owned by one
 * instance at a time, and a failed attempt is retried under the same id. No timing is asserted; the waits are
 * bounded only so that a broken build fails instead of hanging.
 */
@QuarkusIntegrationTest
@TestProfile(PackagedApp.class)
class WebhooksTwoInstancesIT {

    static final int JOBS = 90;
    static final String QUEUE = "it-webhooks";

    @Test
    void everyEventIsDeliveredOnceUnderOneIdWhileTwoInstancesDispatch() throws Exception {
        Map<String, String> db = LocalPostgres.database("steadfast_webhooks_it", true);
        Map<String, String> settings = Map.of(
                "QUARKUS_DATASOURCE_REACTIVE_URL", db.get("quarkus.datasource.reactive.url"),
                "QUARKUS_DATASOURCE_JDBC_URL", db.get("quarkus.datasource.jdbc.url"),
                "STEADFAST_WEBHOOKS_ALLOW_HTTP", "true",
                "STEADFAST_WEBHOOKS_ALLOWED_PRIVATE_RANGES", "127.0.0.0/8",
                "STEADFAST_WEBHOOKS_RETRY_DELAYS", "PT0.2S",
                "STEADFAST_CONSOLE_AUTH_ENABLED", "false",
                "QUARKUS_SHUTDOWN_DELAY", "0S");
        try (WebhookReceiver receiver = new WebhookReceiver().behave(n -> Answer.status(n % 3 == 0 ? 500 : 200));
             SecondInstance first = SecondInstance.start(SecondInstance.SHARED_PORT + 1, "webhooks-a", settings);
             SecondInstance second = SecondInstance.start(SecondInstance.SHARED_PORT + 2, "webhooks-b", settings)) {
            String a = first.base();
            String b = second.base();
            JsonPath sub = call(a, "/ojs/v1/webhooks/subscriptions", obj("url", receiver.url("/hook"),
                    "events", List.of("job.completed"), "filter", obj("queues", List.of(QUEUE))), 201);
            String subscription = sub.getString("subscription.id");

            // The instance the subscription was not created through learns of it on its next reread (every
            // dispatch interval): complete jobs there until one of their events arrives. The events of the jobs it
            // completed before that have no delivery, so these probes are not counted below.
            Set<String> probes = new HashSet<>();
            Instant limit = Instant.now().plusSeconds(30);
            while (deliveredSubjects(receiver).stream().noneMatch(probes::contains)) {
                assertTrue(Instant.now().isBefore(limit), "instance b never delivered an event");
                probes.addAll(completeOn(b, b, 1));
                Thread.sleep(100);
            }

            // Jobs pushed on one instance and acknowledged on the other, both ways.
            Set<String> completed = new HashSet<>();
            completed.addAll(completeOn(a, b, JOBS / 2));
            completed.addAll(completeOn(b, a, JOBS / 2));

            limit = Instant.now().plusSeconds(60);
            while (!deliveredSubjects(receiver).containsAll(completed)) {
                assertTrue(Instant.now().isBefore(limit), "not every completed job's event was delivered within 60 s");
                Thread.sleep(100);
            }

            Map<String, Set<String>> idsBySubject = new HashMap<>();
            Map<String, Integer> successesById = new HashMap<>();
            int failures = 0;
            for (Received r : receiver.received()) {
                String subject = JsonPath.from(r.body()).getString("subject");
                String id = r.header("X-OJS-Delivery-ID");
                idsBySubject.computeIfAbsent(subject, k -> new HashSet<>()).add(id);
                if (r.status() / 100 == 2) {
                    successesById.merge(id, 1, Integer::sum);
                } else {
                    failures++;
                }
            }
            for (String job : completed) {
                assertEquals(1, idsBySubject.get(job).size(), "one delivery id for the event of job " + job);
            }
            successesById.forEach((id, n) -> assertEquals(1, n, "delivery " + id + " answered 2xx more than once"));
            assertTrue(failures > 0, "the receiver failed some attempts, which were retried");

            // Both instances read the same deliveries; every completed job's is delivered.
            for (String base : List.of(a, b)) {
                List<String> delivered = get(base, "/ojs/v1/webhooks/deliveries?subscription_id=" + subscription
                        + "&state=delivered&limit=200").getList("deliveries.subject");
                assertTrue(new HashSet<>(delivered).containsAll(completed), base + ": " + delivered);
            }
        }
    }

    /** The subjects (job ids) of the requests the receiver answered 2xx. */
    private static Set<String> deliveredSubjects(WebhookReceiver receiver) {
        Set<String> out = new HashSet<>();
        for (Received r : receiver.received()) {
            if (r.status() / 100 == 2) {
                out.add(JsonPath.from(r.body()).getString("subject"));
            }
        }
        return out;
    }

    /** Pushes {@code n} jobs on {@code producer}, then fetches and acknowledges each on {@code worker}. */
    private static List<String> completeOn(String producer, String worker, int n) {
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(obj("type", "it.webhook", "args", List.of(i), "options", obj("queue", QUEUE)));
        }
        call(producer, "/ojs/v1/jobs/batch", obj("jobs", jobs), 201);
        List<String> done = new ArrayList<>();
        while (done.size() < n) {
            List<String> ids = call(worker, Api.FETCH, obj("queues", List.of(QUEUE), "count", 10, "worker_id",
                    "it-webhooks"), 200).getList("jobs.id");
            assertTrue(!ids.isEmpty(), "the pushed jobs are fetchable on the other instance");
            for (String id : ids) {
                call(worker, "/ojs/v1/workers/ack", obj("job_id", id, "worker_id", "it-webhooks"), 200);
                done.add(id);
            }
        }
        return done;
    }

    private static JsonPath call(String base, String path, Object body, int status) {
        HttpResponse<String> r = Parallel.send(List.of(new Call(base, path, body, PackagedApp.TOKEN))).get(0);
        assertEquals(status, r.statusCode(), r::body);
        return JsonPath.from(r.body());
    }

    private static JsonPath get(String base, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + PackagedApp.TOKEN)
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r::body);
        return JsonPath.from(r.body());
    }
}
