package dev.steadfast.tools.ojs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tools' client of one OJS server: JSON bodies (records of this package written by {@link OjsJson}, or JSON
 * text as it is), the bearer token and an {@code X-Request-Id} of {@code <prefix>-<n>} on every request (the
 * server echoes it and logs it, so a failure a tool reports can be found in the server's log), and the time each
 * exchange took. Requests never throw for I/O: a request without an answer is an {@link OjsAnswer} with status -1.
 *
 * <p>Requests go over the JDK HttpClient; {@link Builder#rawSockets(boolean)} chooses pooled keep-alive sockets instead,
 * for load tools that must leave the CPU to the server (see {@link SocketTransport}). Thread-safe.
 */
public final class OjsClient implements AutoCloseable {

    public static final String MEDIA_TYPE = "application/openjobspec+json";

    private final String base;
    private final Transport transport;
    private final Duration timeout;
    private final String idPrefix;
    private final AtomicLong sequence = new AtomicLong();

    private OjsClient(Builder b) {
        this.base = b.base;
        this.timeout = b.timeout;
        this.idPrefix = b.requestIdPrefix;
        this.transport = b.rawSockets ? new SocketTransport(b.base, b.token, b.connectTimeout)
                : new JdkTransport(b.base, b.token, b.connectTimeout);
    }

    /** A client of the server at {@code baseUrl} (scheme, host and port, no trailing slash). */
    public static Builder to(String baseUrl) {
        return new Builder(baseUrl.replaceAll("/+$", ""));
    }

    public String base() {
        return base;
    }

    public OjsAnswer get(String path) {
        return send("GET", path, null, timeout);
    }

    /** POST with {@code body} as JSON (a String is sent as it is; null sends no body). */
    public OjsAnswer post(String path, Object body) {
        return send("POST", path, body, timeout);
    }

    /** POST with its own timeout (a long-poll FETCH waits longer than other requests). */
    public OjsAnswer post(String path, Object body, Duration timeout) {
        return send("POST", path, body, timeout);
    }

    public OjsAnswer send(String method, String path, Object body, Duration timeout) {
        Transport.Exchange e = exchange(method, path, body, timeout);
        long t0 = System.nanoTime();
        try {
            Transport.Reply r = transport.exchange(e);
            return OjsAnswer.of(r.status(), r.body(), e.requestId(), System.nanoTime() - t0);
        } catch (IOException ex) {
            return OjsAnswer.failed(ex, e.requestId(), System.nanoTime() - t0);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return OjsAnswer.failed(new IOException("interrupted", ex), e.requestId(), System.nanoTime() - t0);
        }
    }

    /** POST without waiting; always completes normally, with status -1 when no answer came. */
    public CompletableFuture<OjsAnswer> postAsync(String path, Object body) {
        Transport.Exchange e = exchange("POST", path, body, timeout);
        long t0 = System.nanoTime();
        return transport.exchangeAsync(e).handle((r, ex) -> r != null
                ? OjsAnswer.of(r.status(), r.body(), e.requestId(), System.nanoTime() - t0)
                : OjsAnswer.failed(io(ex), e.requestId(), System.nanoTime() - t0));
    }

    /** GET /ojs/v1/health: any HTTP answer counts as reachable. */
    public void checkReachable() throws IOException {
        OjsAnswer a = send("GET", "/ojs/v1/health", null, Duration.ofSeconds(5));
        if (a.failed()) {
            throw a.failure() instanceof ConnectException
                    ? new IOException("cannot reach server at " + base + ": connection refused")
                    : new IOException("cannot reach server at " + base + ": " + a.failure());
        }
    }

    private Transport.Exchange exchange(String method, String path, Object body, Duration timeout) {
        String json = body == null ? null : OjsJson.write(body);
        return new Transport.Exchange(method, path, json, idPrefix + "-" + sequence.incrementAndGet(), timeout);
    }

    private static IOException io(Throwable t) {
        Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        if (cause instanceof IOException e) {
            return e;
        }
        if (cause instanceof UncheckedIOException e) {
            return e.getCause();
        }
        return new IOException(cause.toString(), cause);
    }

    @Override
    public void close() {
        transport.close();
    }

    /** How to reach the server; defaults: JDK HttpClient, 30 s per request, 5 s to connect, no token. */
    public static final class Builder {
        private final String base;
        private String token;
        private Duration timeout = Duration.ofSeconds(30);
        private Duration connectTimeout = Duration.ofSeconds(5);
        private String requestIdPrefix = "tools-" + ProcessHandle.current().pid();
        private boolean rawSockets;

        private Builder(String base) {
            this.base = base;
        }

        /** Sends {@code Authorization: Bearer <token>}; null sends none. */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        /** Request ids {@code <prefix>-1}, {@code <prefix>-2}, ...: letters, digits, '.', '_', ':' and '-'. */
        public Builder requestIds(String prefix) {
            this.requestIdPrefix = prefix;
            return this;
        }

        /** Pooled keep-alive sockets instead of the JDK HttpClient when {@code on} (load tools). */
        public Builder rawSockets(boolean on) {
            this.rawSockets = on;
            return this;
        }

        public OjsClient build() {
            return new OjsClient(this);
        }
    }
}
