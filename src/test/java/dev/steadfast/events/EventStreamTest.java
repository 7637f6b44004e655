package dev.steadfast.events;

import static dev.steadfast.testsupport.Api.enqueue;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.time.Duration;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The server-sent event stream delivers lifecycle events live, filtered by queue. */
@QuarkusTest
class EventStreamTest {

    @TestHTTPResource("/ojs/v1/events/stream?queues=sse-q&types=job.enqueued")
    URI stream;

    @Test
    void anEnqueueArrivesOnTheStream() throws Exception {
        String line = firstEnqueuedEvent(stream, () -> {
            enqueue("sse.job", "sse-q");
            enqueue("sse.job", "other-q");
        });
        assertTrue(line.contains("\"queue\":\"sse-q\""), line);
        assertTrue(line.contains("\"specversion\":\"1.0\""), line);
        assertTrue(!line.contains("other-q"), line);
    }

    @TestHTTPResource("/ojs/v1/events/stream?channel=queue:sse-ch")
    URI channelStream;

    /** The SDKs subscribe with channel=queue:<name>; only that queue's events arrive, as data lines. */
    @Test
    void theSdksChannelFilterSelectsOneQueue() throws Exception {
        String line = firstEnqueuedEvent(channelStream, () -> {
            enqueue("sse.job", "other-ch");
            enqueue("sse.job", "sse-ch");
        });
        assertTrue(line.contains("\"queue\":\"sse-ch\""), line);
    }

    /**
     * Opens the stream at {@code uri} and runs {@code enqueue} every 100 ms (the subscription is registered
     * asynchronously) until a {@code job.enqueued} data line arrives, for at most 10 s; answers that line.
     */
    private static String firstEnqueuedEvent(URI uri, Runnable enqueue) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest req = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream").build();
        CompletableFuture<HttpResponse<Stream<String>>> open = client.sendAsync(req, HttpResponse.BodyHandlers.ofLines());
        CompletableFuture<String> seen = open.thenApplyAsync(r -> r.body()
                .filter(l -> l.startsWith("data:") && l.contains("job.enqueued")).findFirst().orElse(""));
        await("a job.enqueued event on " + uri).pollInterval(Duration.ofMillis(100)).atMost(Duration.ofSeconds(10))
                .until(() -> {
                    enqueue.run();
                    return seen.isDone();
                });
        String line = seen.get(1, TimeUnit.SECONDS);
        open.get().body().close();
        return line;
    }

    @Test
    void anUnknownChannelIsRefusedWithTheEnvelope() {
        Api.assertError(Api.request().get("/ojs/v1/events/stream?channel=tenant:7"), 400, "invalid_request");
    }
}
