package dev.steadfast.queues;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.http.TestHTTPResource;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Producer slots (steadfast.fairness.producer-slots, 8): with workers busy, many more concurrent pushes than slots
 * all get their answer (the waiting ones are released as slots free), and worker requests are never held.
 * ProducerSlotsTest covers the rule itself.
 */
@io.quarkus.test.junit.QuarkusTest
class FairShareTest {

    @TestHTTPResource("/ojs/v1/jobs")
    URI jobs;

    @TestHTTPResource("/ojs/v1/workers/fetch")
    URI fetch;

    @Test
    void pushesBeyondTheSlotsWaitTheirTurnAndAllGetAnswered() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String queue = "fair-" + System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            // a worker request first, so the producer limit applies to the pushes that follow
            answers.add(client.sendAsync(post(fetch, "{\"queues\":[\"" + queue + "\"],\"worker_id\":\"w\"}"),
                    HttpResponse.BodyHandlers.ofString()));
            for (int i = 0; i < 40; i++) {
                answers.add(client.sendAsync(post(jobs, "{\"type\":\"fair.job\",\"args\":[" + i + "],"
                        + "\"options\":{\"queue\":\"" + queue + "\"}}"), HttpResponse.BodyHandlers.ofString()));
            }
        }
        int pushed = 0, fetched = 0;
        for (CompletableFuture<HttpResponse<String>> a : answers) {
            HttpResponse<String> r = a.get(60, TimeUnit.SECONDS);
            if (r.uri().getPath().endsWith("/fetch")) {
                assertEquals(200, r.statusCode(), r.body());
                fetched++;
            } else {
                assertEquals(201, r.statusCode(), r.body());
                pushed++;
            }
        }
        assertEquals(200, pushed);
        assertEquals(5, fetched);
    }

    private static HttpRequest post(URI uri, String body) {
        return HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
