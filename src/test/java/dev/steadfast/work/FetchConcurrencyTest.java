package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.OJS_JSON;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.json;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Many workers fetching at once: every job is handed out exactly once (ojs-http-binding.md 10.1, "atomically
 * transition fetched jobs ... to prevent double-delivery").
 */
@QuarkusTest
class FetchConcurrencyTest {

    private static final int JOBS = 600;
    private static final int WORKERS = 16;
    private static final int BATCH = 7;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/ojs/v1/jobs")
    URI jobsUri;

    @TestHTTPResource("/ojs/v1/workers/fetch")
    URI fetchUri;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private ExecutorService pool;

    @BeforeEach
    void setUp() {
        Api.reset();
        pool = Executors.newFixedThreadPool(WORKERS);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    }

    @Test
    void sixteenWorkersFetchingOneQueueGetEveryJobExactlyOnce() throws Exception {
        Set<String> enqueued = enqueueAll(List.of("crowd"));

        List<String> fetched = fetchUntilEmpty(List.of("crowd"));

        assertExactlyOnce(enqueued, fetched);
    }

    @Test
    void sixteenWorkersFetchingTwoQueuesTogetherGetEveryJobExactlyOnce() throws Exception {
        Set<String> enqueued = enqueueAll(List.of("crowd-a", "crowd-b"));

        List<String> fetched = fetchUntilEmpty(List.of("crowd-a", "crowd-b"));

        assertExactlyOnce(enqueued, fetched);
    }

    private static void assertExactlyOnce(Set<String> enqueued, List<String> fetched) {
        assertEquals(JOBS, enqueued.size());
        Set<String> distinct = new HashSet<>(fetched);
        List<String> duplicates = new ArrayList<>(fetched);
        distinct.forEach(duplicates::remove);
        assertEquals(List.of(), duplicates, "ids handed out more than once");
        assertEquals(enqueued, distinct, "every enqueued job is fetched, and nothing else");
        assertEquals(JOBS, fetched.size());
    }

    /** Enqueues {@link #JOBS} jobs spread round-robin over {@code queues}, 16 at a time. */
    private Set<String> enqueueAll(List<String> queues) throws Exception {
        List<Future<String>> ids = new ArrayList<>(JOBS);
        for (int i = 0; i < JOBS; i++) {
            String body = json(job("load.test", queues.get(i % queues.size())));
            ids.add(pool.submit(() -> {
                HttpResponse<String> r = post(jobsUri, body);
                assertEquals(201, r.statusCode(), r.body());
                return JSON.readTree(r.body()).at("/job/id").asText();
            }));
        }
        Set<String> out = new HashSet<>();
        for (Future<String> f : ids) {
            out.add(f.get(60, TimeUnit.SECONDS));
        }
        return out;
    }

    /**
     * Starts {@link #WORKERS} workers together; each fetches {@link #BATCH} jobs at a time under its own
     * worker_id until a fetch comes back empty. Returns every id handed out, in no particular order.
     */
    private List<String> fetchUntilEmpty(List<String> queues) throws Exception {
        ConcurrentLinkedQueue<String> fetched = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            String body = json(obj("queues", arr(queues.toArray()), "count", BATCH, "worker_id", "worker-" + w));
            workers.add(pool.submit(() -> {
                start.await();
                int fetches = 0;
                while (true) {
                    HttpResponse<String> r = post(fetchUri, body);
                    assertEquals(200, r.statusCode(), r.body());
                    fetches++;
                    JsonNode jobs = JSON.readTree(r.body()).path("jobs");
                    assertTrue(jobs.size() <= BATCH, "a fetch returned more than count: " + jobs.size());
                    if (jobs.isEmpty()) {
                        return fetches;
                    }
                    for (JsonNode j : jobs) {
                        assertEquals("active", j.path("state").asText());
                        fetched.add(j.path("id").asText());
                    }
                }
            }));
        }
        start.countDown();
        for (Future<Integer> f : workers) {
            assertTrue(f.get(120, TimeUnit.SECONDS) >= 1);
        }
        return new ArrayList<>(fetched);
    }

    private HttpResponse<String> post(URI uri, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).header("Content-Type", OJS_JSON).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
