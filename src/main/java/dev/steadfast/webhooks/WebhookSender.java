package dev.steadfast.webhooks;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.webhook.AddressRange;
import dev.steadfast.domain.webhook.DeliveryDecision.Failure;
import dev.steadfast.domain.webhook.WebhookTarget;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Posts one webhook request over Vert.x's HTTP client, without blocking the event loop, and says what came back.
 *
 * <p>The target is checked before every connection: a host name is resolved (on a worker thread: the JDK's
 * resolver blocks) and every address it resolves to must be allowed ({@link WebhookTarget#refuses}); the request
 * then connects to the checked address while naming the host (Host header, TLS server name and certificate check),
 * so a name that resolves differently a moment later (DNS rebinding) cannot move it elsewhere. Redirects are
 * followed by hand, at most {@link #MAX_REDIRECTS} (ojs-webhooks 7.1), each new target checked the same way and
 * sent the same body. The timeout covers connecting, sending and waiting for the answer; of the answer's body only
 * the first {@link #KEPT_BODY_BYTES} bytes are kept (what the test route shows), the rest is read and dropped.
 */
@ApplicationScoped
class WebhookSender {

    static final int MAX_REDIRECTS = 3;
    static final int KEPT_BODY_BYTES = 1024;
    static final String USER_AGENT = "OJS-Webhook/1.0 (Steadfast)";

    /** What an attempt saw: a status (0 for none), Retry-After, the start of the answer's body, or a failure. */
    public record Sent(int status, Duration retryAfter, String body, Failure failure, String error, long durationMs) {
    }

    private final Vertx vertx;
    private final HttpClient client;
    private final boolean allowHttp;
    private final List<AddressRange> allowed;

    public WebhookSender(Vertx vertx, WebhooksConfig config) {
        this.vertx = vertx;
        this.allowHttp = config.allowHttp();
        this.allowed = WebhookService.ranges(config);
        this.client = vertx.createHttpClient(new HttpClientOptions().setMaxPoolSize(config.batchSize())
                .setKeepAlive(true).setVerifyHost(true).setTryUseCompression(false));
    }

    void close(@Observes ShutdownEvent e) {
        client.close();
    }

    /** Posts {@code body} with {@code headers} to {@code url} within {@code timeoutMs}; never fails (see Sent). */
    public Uni<Sent> post(String url, Map<String, String> headers, String body, int timeoutMs) {
        long start = System.nanoTime();
        Future<Sent> f = attempt(URI.create(url), headers, Buffer.buffer(body), timeoutMs, 0, start)
                .recover(t -> Future.succeededFuture(failed(kind(t), message(t), start)));
        return Uni.createFrom().completionStage(f.toCompletionStage());
    }

    private Future<Sent> attempt(URI url, Map<String, String> headers, Buffer body, int timeoutMs, int redirects,
                                 long start) {
        return resolve(url).compose(address -> {
            if (address == null) {
                return Future.succeededFuture(failed(Failure.TARGET_REFUSED, "the target " + url.getHost()
                        + " resolves to a private, loopback or link-local address", start));
            }
            boolean https = url.getScheme().equalsIgnoreCase("https");
            int port = url.getPort() > 0 ? url.getPort() : https ? 443 : 80;
            String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
            RequestOptions o = new RequestOptions().setMethod(HttpMethod.POST)
                    .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()))
                    .setHost(url.getHost()).setPort(port).setSsl(https)
                    .setURI(url.getRawQuery() == null ? path : path + "?" + url.getRawQuery())
                    .setConnectTimeout(timeoutMs).setIdleTimeout(timeoutMs).setFollowRedirects(false);
            headers.forEach(o::putHeader);
            o.putHeader("User-Agent", USER_AGENT);
            long deadline = timeoutMs - (System.nanoTime() - start) / 1_000_000;
            if (deadline <= 0) {
                return Future.succeededFuture(failed(Failure.TIMEOUT, "timed out after " + timeoutMs + " ms", start));
            }
            Promise<Sent> done = Promise.promise();
            long timer = vertx.setTimer(deadline, t -> done.tryComplete(failed(Failure.TIMEOUT,
                    "no answer within " + timeoutMs + " ms", start)));
            client.request(o).compose(req -> req.send(body)).compose(resp -> answer(resp, url, headers, body,
                            timeoutMs, redirects, start))
                    .onComplete(ar -> {
                        vertx.cancelTimer(timer);
                        done.tryComplete(ar.succeeded() ? ar.result() : failed(kind(ar.cause()),
                                message(ar.cause()), start));
                    });
            return done.future();
        });
    }

    private Future<Sent> answer(HttpClientResponse resp, URI url, Map<String, String> headers, Buffer body,
                                int timeoutMs, int redirects, long start) {
        int status = resp.statusCode();
        String location = resp.getHeader("Location");
        Duration retryAfter = retryAfter(resp.getHeader("Retry-After"));
        Promise<Sent> read = Promise.promise();
        Buffer kept = Buffer.buffer();
        resp.handler(chunk -> {
            int room = KEPT_BODY_BYTES - kept.length();
            if (room > 0) {
                kept.appendBuffer(chunk.length() <= room ? chunk : chunk.getBuffer(0, room));
            }
        });
        resp.exceptionHandler(read::tryFail);
        resp.endHandler(v -> read.tryComplete(new Sent(status, retryAfter,
                kept.toString(StandardCharsets.UTF_8), null, null, elapsed(start))));
        return read.future().compose(sent -> {
            if (status < 300 || status >= 400) {
                return Future.succeededFuture(sent);
            }
            if (location == null || redirects >= MAX_REDIRECTS) {
                return Future.succeededFuture(failed(Failure.REDIRECTS, location == null ? "a " + status
                        + " without a Location" : "more than " + MAX_REDIRECTS + " redirects", start, status));
            }
            URI next;
            try {
                next = WebhookTarget.check("Location", url.resolve(location).toString(), allowHttp, allowed);
            } catch (OjsException | IllegalArgumentException e) {
                return Future.succeededFuture(failed(Failure.TARGET_REFUSED, "the redirect to " + location
                        + " is refused: " + e.getMessage(), start, status));
            }
            return attempt(next, headers, body, timeoutMs, redirects + 1, start);
        });
    }

    /** The checked address to connect to, or null when the host is refused (or any of its addresses is). */
    private Future<InetAddress> resolve(URI url) {
        InetAddress literal = WebhookTarget.literal(url.getHost());
        if (literal != null) {
            return Future.succeededFuture(WebhookTarget.refuses(literal, allowed) ? null : literal);
        }
        return vertx.executeBlocking(() -> {
            InetAddress[] all = InetAddress.getAllByName(url.getHost());
            for (InetAddress a : all) {
                if (WebhookTarget.refuses(a, allowed)) {
                    return null;
                }
            }
            return all[0];
        }, false);
    }

    static Duration retryAfter(String header) {
        if (header == null) {
            return null;
        }
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(header.trim())));
        } catch (NumberFormatException e) {
            try {
                Instant at = DateTimeFormatter.RFC_1123_DATE_TIME
                        .parse(header.trim(), Instant::from);
                Duration d = Duration.between(Instant.now(), at);
                return d.isNegative() ? Duration.ZERO : d;
            } catch (DateTimeException ex) {
                return null;
            }
        }
    }

    private static Failure kind(Throwable t) {
        String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
        return t instanceof TimeoutException || t.getClass().getSimpleName().contains("Timeout")
                || m.contains("timeout") || m.contains("timed out") ? Failure.TIMEOUT : Failure.CONNECTION;
    }

    private static String message(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        if (t instanceof UnknownHostException) {
            m = "unknown host " + m;
        }
        return m.length() > 300 ? m.substring(0, 300) : m;
    }

    private static Sent failed(Failure f, String error, long start) {
        return failed(f, error, start, 0);
    }

    private static Sent failed(Failure f, String error, long start, int status) {
        return new Sent(status, null, null, f, error, elapsed(start));
    }

    private static long elapsed(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
