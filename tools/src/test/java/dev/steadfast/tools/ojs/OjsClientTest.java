package dev.steadfast.tools.ojs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both transports against the JDK's own HTTP server: what goes out, what comes back, what no answer looks like. */
class OjsClientTest {

    record Seen(String method, String path, String authorization, String requestId, String contentType, String body) {
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void sendsTokenRequestIdsAndJsonAndReadsTheAnswer(boolean rawSockets) throws Exception {
        ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(new Seen(ex.getRequestMethod(), ex.getRequestURI().toString(),
                    ex.getRequestHeaders().getFirst("Authorization"), ex.getRequestHeaders().getFirst("X-Request-Id"),
                    ex.getRequestHeaders().getFirst("Content-Type"), body));
            if (ex.getRequestURI().getPath().equals("/ojs/v1/workers/fetch")) {
                // chunked (length 0): the socket transport must put the chunks together
                answer(ex, 200, "{\"jobs\":[{\"id\":\"j1\",\"state\":\"active\",\"attempt\":1,\"args\":[{\"id\":\"x\"}]}],"
                        + "\"job\":{\"id\":\"j1\"}}", true);
            } else {
                answer(ex, 400, "{\"error\":{\"code\":\"invalid_request\",\"message\":\"no\",\"request_id\":\""
                        + ex.getRequestHeaders().getFirst("X-Request-Id") + "\"}}", false);
            }
        });
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        try (OjsClient c = OjsClient.to(base).token("stf_t").requestIds("test").rawSockets(rawSockets).build()) {
            OjsAnswer fetch = c.post(WorkerCalls.FETCH, WorkerCalls.Fetch.of("q", 5, "w1").waiting(100));
            assertEquals(200, fetch.status());
            List<Answers.Job> jobs = fetch.as(Answers.Jobs.class).orElseThrow().list();
            assertEquals(List.of(new Answers.Job("j1", "active", 1)), jobs);
            assertEquals("active", fetch.find("state").orElseThrow());

            OjsAnswer refused = c.postAsync("/ojs/v1/jobs", NewJob.of("t", List.of(1), "q")).get();
            assertEquals(400, refused.status());
            ErrorEnvelope.Error e = refused.envelope().orElseThrow();
            assertEquals("invalid_request", e.code());
            assertEquals(refused.requestId(), e.requestId());

            OjsAnswer get = c.get("/ojs/v1/health");
            assertEquals(400, get.status());
        } finally {
            server.stop(0);
        }
        List<Seen> all = List.copyOf(seen);
        assertEquals(3, all.size());
        Seen fetch = all.get(0);
        assertEquals("POST", fetch.method());
        assertEquals("Bearer stf_t", fetch.authorization());
        assertEquals("test-1", fetch.requestId());
        assertEquals(OjsClient.MEDIA_TYPE, fetch.contentType());
        assertEquals("{\"queues\":[\"q\"],\"count\":5,\"worker_id\":\"w1\",\"wait_ms\":100}", fetch.body());
        assertEquals("{\"type\":\"t\",\"args\":[1],\"options\":{\"queue\":\"q\"}}", all.get(1).body());
        assertEquals("test-2", all.get(1).requestId());
        assertEquals("GET", all.get(2).method());
        assertEquals("", all.get(2).body());
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void noAnswerIsStatusMinusOneWithTheFailure(boolean rawSockets) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        try (OjsClient c = OjsClient.to("http://127.0.0.1:" + port).rawSockets(rawSockets).build()) {
            OjsAnswer a = c.post("/ojs/v1/jobs", Map.of());
            assertTrue(a.failed());
            assertNotNull(a.failure());
            assertEquals(a.failure().toString(), a.body());
            OjsAnswer async = c.postAsync("/ojs/v1/jobs", Map.of()).get();
            assertTrue(async.failed());
            assertTrue(async.envelope().isEmpty());
        }
    }

    private static void answer(HttpExchange ex, int status, String body, boolean chunked) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", OjsClient.MEDIA_TYPE);
        ex.sendResponseHeaders(status, chunked ? 0 : b.length);
        ex.getResponseBody().write(b);
        ex.close();
    }
}
