package dev.steadfast.tools.ojs;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Requests over the JDK's {@link HttpClient}, forced to HTTP/1.1 with a small fixed executor: one keep-alive
 * connection per request in flight, so connections follow the callers' concurrency.
 */
final class JdkTransport implements Transport {

    private final String base;
    private final String authorization;
    private final ExecutorService pool;
    private final HttpClient client;

    JdkTransport(String base, String token, Duration connectTimeout) {
        this.base = base;
        this.authorization = token == null ? null : "Bearer " + token;
        this.pool = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()), r -> {
            Thread t = new Thread(r, "ojs-http");
            t.setDaemon(true);
            return t;
        });
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .executor(pool).build();
    }

    @Override
    public Reply exchange(Exchange e) throws IOException, InterruptedException {
        HttpResponse<String> r = client.send(request(e), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body());
    }

    @Override
    public CompletableFuture<Reply> exchangeAsync(Exchange e) {
        try {
            return client.sendAsync(request(e), HttpResponse.BodyHandlers.ofString())
                    .thenApply(r -> new Reply(r.statusCode(), r.body()));
        } catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex); // never throw: callers may hold a permit
        }
    }

    private HttpRequest request(Exchange e) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + e.path())).timeout(e.timeout())
                .header("Accept", OjsClient.MEDIA_TYPE).header("X-Request-Id", e.requestId());
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        if (e.body() == null) {
            return b.method(e.method(), HttpRequest.BodyPublishers.noBody()).build();
        }
        return b.header("Content-Type", OjsClient.MEDIA_TYPE)
                .method(e.method(), HttpRequest.BodyPublishers.ofString(e.body())).build();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
