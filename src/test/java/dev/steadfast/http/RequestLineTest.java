package dev.steadfast.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Refusals the HTTP layer used to answer with a bare status (no body, no request id): bad URLs, long request
 * lines, too many parameters or headers, a body with the wrong content type on any method. Sent on raw sockets,
 * since HTTP clients refuse to send such requests; each must be the OJS envelope with X-Request-Id.
 */
@QuarkusTest
class RequestLineTest {

    @TestHTTPResource("/")
    URL base;

    record Answer(int status, String head, String body) {
    }

    Answer raw(String method, String target, List<String> headers, String body) throws IOException {
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            StringBuilder req = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n");
            headers.forEach(h -> req.append(h).append("\r\n"));
            byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            if (body != null) {
                req.append("Content-Length: ").append(b.length).append("\r\n");
            }
            s.getOutputStream().write(req.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().write(b);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
            }
            String text = out.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            return new Answer(Integer.parseInt(text.substring(9, 12)), text.substring(0, end), text.substring(end + 4));
        }
    }

    void assertEnvelope(Answer a, int status, String field) {
        assertEquals(status, a.status(), a.head() + "\n" + a.body());
        String head = a.head().toLowerCase();
        assertTrue(head.contains("x-request-id: "), a.head());
        assertTrue(head.contains("ojs-version: 1.0"), a.head());
        assertTrue(head.contains("content-type: application/openjobspec+json"), a.head());
        assertTrue(a.body().startsWith("{\"error\":{\"code\":\"invalid_request\""), a.body());
        assertTrue(a.body().contains("\"request_id\":\"req_"), a.body());
        if (field != null) {
            assertTrue(a.body().contains("\"field\":\"" + field + "\""), a.body());
        }
    }

    @Test
    void badUrlsAreEnvelopes() throws IOException {
        assertEnvelope(raw("GET", "/ojs/v1/jobs/%zz", List.of(), null), 400, "path");
        assertEnvelope(raw("GET", "/ojs/v1/jobs/%", List.of(), null), 400, "path");
        assertEnvelope(raw("GET", "/ojs/v1/jobs/{id}", List.of(), null), 400, "path");
        assertEnvelope(raw("POST", "/ojs/v1/queues/[x]/pause", List.of(), null), 400, "path");
        assertEnvelope(raw("GET", "/ojs/v1/jobs/a\\b", List.of(), null), 400, "path");
        assertEnvelope(raw("GET", "/ojs/v1/jobs/%E0%A4", List.of(), null), 400, "path");
        assertEnvelope(raw("POST", "/ojs/v1/admin/workers/w%00x/quiet", List.of(), null), 400, "path");
        assertEnvelope(raw("GET", "/ojs/v1/dead-letter?queue=a%00b", List.of(), null), 400, "queue");
        assertEnvelope(raw("GET", "/ojs/v1/dead-letter?queue=<x>", List.of(), null), 400, "queue");
        assertEnvelope(raw("GET", "/ojs/v1/events?types=%G1", List.of(), null), 400, "types");
    }

    @Test
    void oversizedRequestLinesParametersAndHeadersAreEnvelopes() throws IOException {
        assertEnvelope(raw("GET", "/ojs/v1/queues?x=" + "a".repeat(5000), List.of(), null), 414, null);
        StringBuilder many = new StringBuilder("/ojs/v1/queues?");
        for (int i = 0; i < 300; i++) {
            many.append("p").append(i).append("=1&");
        }
        assertEnvelope(raw("GET", many.toString(), List.of(), null), 400, "query");
        List<String> headers = new java.util.ArrayList<>();
        for (int i = 0; i < 150; i++) {
            headers.add("X-H" + i + ": v");
        }
        assertEnvelope(raw("GET", "/ojs/v1/queues", headers, null), 431, null);
        assertEnvelope(raw("GET", "/ojs/v1/queues", List.of("X-Big: " + "v".repeat(20_000)), null), 431, null);
    }

    @Test
    void aBodyWithAnotherContentTypeIsRefusedOnEveryMethod() throws IOException {
        String multipart = "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--xyz--\r\n";
        for (String method : List.of("GET", "DELETE", "POST", "PUT")) {
            assertEnvelope(raw(method, "/ojs/v1/queues", List.of("Content-Type: multipart/form-data; boundary=xyz"),
                    multipart), 400, "Content-Type");
        }
        assertEnvelope(raw("POST", "/ojs/v1/jobs", List.of("Content-Type: text/plain"), "{}"), 400, "Content-Type");
    }

    /**
     * A control byte other than HTAB in a header value (RFC 9110 5.5) is refused by the HTTP layer before the
     * application sees the request (Netty's decoder; a bare 400, see docs/reference/protocol-notes.md). Whoever
     * answers, it is a 400 (the envelope with a request id if it ever reaches the application), and the next
     * request is served as usual. HTAB and bytes 0x80-0xFF (obs-text) are allowed and reach the application.
     */
    @Test
    void controlBytesInHeaderValuesAreRefusedWith400AndHarmNothing() throws IOException {
        int bare = 0;
        int sent = 0;
        for (int b = 0; b <= 0x7f; b = b == 0x1f ? 0x7f : b + 1) {
            if (b == '\t') {
                continue;
            }
            for (String header : List.of("X-Fuzz: a" + (char) b + "b", "Authorization: Bearer " + (char) b,
                    "X-Request-Id: r" + (char) b + "1", "OJS-Version: 1.0" + (char) b)) {
                Answer a = raw("GET", "/ojs/v1/queues", List.of(header), null);
                sent++;
                assertEquals(400, a.status(), String.format("byte 0x%02x in %s: %s", b, header, a.head()));
                if (a.body().isEmpty()) {
                    bare++;
                } else {
                    assertEnvelope(a, 400, null);
                }
            }
        }
        System.out.println("control bytes in header values: " + bare + " of " + sent + " answered by the HTTP layer alone");
        assertEquals(200, raw("GET", "/ojs/v1/queues", List.of("X-Fuzz: a\tb\u00e9"), null).status());
        assertEquals(200, raw("GET", "/ojs/v1/queues", List.of(), null).status());
    }

    @Test
    void theConsoleAnswersItsOwnPageForBadUrls() throws IOException {
        Answer a = raw("GET", "/admin/jobs/{x}", List.of(), null);
        assertEquals(400, a.status());
        assertTrue(a.head().toLowerCase().contains("content-type: text/html"), a.head());
    }

    @Test
    void theRequestTargetRulesAlone() {
        assertNull(RequestTarget.check("GET", "/ojs/v1/dead-letter?since=2026-01-01T00:00:00%2B01:00&limit=5", 5, 100));
        assertNull(RequestTarget.check("GET", "/ojs/v1/jobs/019a0000-0000-7000-8000-000000000001", 5, 100));
        assertNull(RequestTarget.check("GET", "/ojs/v1/events?queues=a,b&types=job.completed", 5, 100));
        assertNotNull(RequestTarget.check("GET", "/ojs/v1/x y", 5, 100));
        assertNotNull(RequestTarget.check("GET", "/ojs/v1/caf\u00e9", 5, 100));
        assertEquals("caf\u00e9", RequestTarget.decode("caf%C3%A9"));
        assertNull(RequestTarget.decode("%C3"));
    }
}
