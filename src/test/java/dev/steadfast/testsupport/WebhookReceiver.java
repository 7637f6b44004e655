package dev.steadfast.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A real HTTP endpoint on 127.0.0.1 for webhook tests (the JDK's own server): it records every request (headers and
 * body, and the status it answered) and answers each as {@link #behave} says for the request's number (1 for the
 * first, counted as requests arrive): a status, a status after a delay, or a connection closed without an answer.
 */
public final class WebhookReceiver implements AutoCloseable {

    /** What to do with one request. */
    public record Answer(int status, long delayMs, boolean close, Map<String, String> headers) {

        public static Answer status(int s) {
            return new Answer(s, 0, false, Map.of());
        }

        public static Answer slow(int s, long delayMs) {
            return new Answer(s, delayMs, false, Map.of());
        }

        public static Answer hangUp() {
            return new Answer(0, 0, true, Map.of());
        }
    }

    /** One request received, and the status it was answered with (0: the connection was closed instead). */
    public record Received(String path, Map<String, List<String>> headers, String body, int status) {

        public String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger count = new AtomicInteger();
    private volatile IntFunction<Answer> behave = n -> Answer.status(200);

    public WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    public WebhookReceiver behave(IntFunction<Answer> b) {
        behave = b;
        return this;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    private void handle(HttpExchange x) throws IOException {
        String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Answer a = behave.apply(count.incrementAndGet());
        received.add(new Received(x.getRequestURI().getPath(), Map.copyOf(x.getRequestHeaders()), body,
                a.close() ? 0 : a.status()));
        if (a.close()) {
            x.close(); // no status line: the client sees the connection end
            return;
        }
        if (a.delayMs() > 0) {
            try {
                Thread.sleep(a.delayMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        a.headers().forEach((k, v) -> x.getResponseHeaders().add(k, v));
        byte[] out = ("answer " + a.status()).getBytes(StandardCharsets.UTF_8);
        try {
            x.sendResponseHeaders(a.status(), out.length);
            try (OutputStream os = x.getResponseBody()) {
                os.write(out);
            }
        } catch (IOException e) {
            // the client gave up (a timeout): nothing to answer
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
