package dev.steadfast.tools.grpcproxy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjobspec.ojs.v1.OJSServiceGrpc;

/**
 * An HTTP server on 127.0.0.1 that answers the OJS HTTP binding's requests by calling the server's gRPC binding:
 * each request goes to the one RPC of its route ({@link Routes}), over one h2c channel to the server's port, with
 * {@code authorization: Bearer <token>} when a token is given. It lets the HTTP conformance runner replay its cases
 * over gRPC. Nothing a worker or producer sends is forwarded over HTTP; the one exception is the runner's reset
 * hook ({@value #RESET}), a test hook with no RPC, which goes to the server's HTTP port as it came. A route without
 * an RPC (the events feed, the admin API) and a request the message cannot carry are answered by the proxy itself
 * with 501 and an envelope that says so ({@code details.answered_by: "grpc-proxy"}). Answers are
 * {@code application/json}: the OJS media type is the HTTP binding's, which the gRPC answer does not have.
 */
public final class GrpcProxy implements AutoCloseable {

    static final String RESET = "/ojs/v1/admin/reset";

    private final ObjectMapper json = new ObjectMapper();
    private final ManagedChannel channel;
    private final Routes routes;
    private final ErrorAnswers errors = new ErrorAnswers(json);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI server;
    private final String token;
    private final HttpServer listener;
    private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "grpc-proxy");
        t.setDaemon(true);
        return t;
    });

    /** Listens on 127.0.0.1:{@code listenPort} (0: any free port) for a server at 127.0.0.1:{@code serverPort}. */
    public GrpcProxy(int serverPort, int listenPort, String token) throws IOException {
        this.server = URI.create("http://127.0.0.1:" + serverPort);
        this.token = token;
        this.channel = Grpc.newChannelBuilderForAddress("127.0.0.1", serverPort, InsecureChannelCredentials.create())
                .build();
        Metadata headers = new Metadata();
        if (token != null && !token.isEmpty()) {
            headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        }
        this.routes = new Routes(OJSServiceGrpc.newBlockingStub(channel)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers)), json);
        this.listener = HttpServer.create(new InetSocketAddress("127.0.0.1", listenPort), 64);
        listener.createContext("/", this::handle);
        listener.setExecutor(workers);
        listener.start();
    }

    /** The port the proxy listens on. */
    public int port() {
        return listener.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            HttpReply reply;
            byte[] body = readAll(ex.getRequestBody());
            String method = ex.getRequestMethod();
            String path = ex.getRequestURI().getRawPath();
            try {
                reply = method.equals("POST") && path.equals(RESET) ? reset(ex, body) : answer(method, path,
                        query(ex.getRequestURI().getRawQuery()), body);
            } catch (RuntimeException e) {
                System.err.println("grpc-proxy: " + method + " " + path + ": " + e);
                reply = errors.proxy(500, "internal_error", "grpc-proxy failed: " + e);
            }
            byte[] out = json.writeValueAsBytes(reply.body());
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(reply.status(), out.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(out);
            }
        } finally {
            ex.close();
        }
    }

    private HttpReply answer(String method, String rawPath, Map<String, String> query, byte[] body) {
        String path = URLDecoder.decode(rawPath, StandardCharsets.UTF_8);
        Routes.Matched m = routes.find(method, path);
        if (m == null || m.route() == null) {
            return proxyAnswer(method, path, 501, "no_rpc", method + " " + path
                    + " has no RPC in ojs.v1.OJSService, so it is not replayed over gRPC");
        }
        try {
            return m.route().handler().answer(m.path(), query, json(body));
        } catch (StatusRuntimeException e) {
            return errors.of(e);
        } catch (NotExpressible e) {
            return proxyAnswer(method, path, 501, "not_expressible", "the request to " + method + " " + path
                    + " cannot be carried by its RPC's message: " + e.getMessage());
        }
    }

    private HttpReply proxyAnswer(String method, String path, int status, String code, String message) {
        System.err.println("grpc-proxy: " + status + " " + code + ": " + message);
        return errors.proxy(status, code, "grpc-proxy: " + message);
    }

    /** The body as a JSON object; an empty body is an empty object (a GET, a pause). */
    private JsonNode json(byte[] body) {
        if (body.length == 0) {
            return json.createObjectNode();
        }
        JsonNode n;
        try {
            n = json.readTree(body);
        } catch (JsonProcessingException e) {
            throw new NotExpressible("the body is not JSON (a protobuf message is always well-formed)");
        } catch (IOException e) {
            throw new NotExpressible("the body cannot be read: " + e.getMessage());
        }
        if (n == null || n.isMissingNode() || !n.isObject()) {
            throw new NotExpressible("the body is not a JSON object (a request message is one)");
        }
        return n;
    }

    /** The reset hook: to the server's HTTP port, with the caller's authorization (or the token's). */
    private HttpReply reset(HttpExchange ex, byte[] body) {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth == null && token != null && !token.isEmpty()) {
            auth = "Bearer " + token;
        }
        HttpRequest.Builder r = HttpRequest.newBuilder(server.resolve(RESET)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (auth != null) {
            r.header("Authorization", auth);
        }
        try {
            HttpResponse<String> a = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode b = a.body().isBlank() ? json.createObjectNode() : json.readTree(a.body());
            return new HttpReply(a.statusCode(), b);
        } catch (IOException e) {
            return errors.proxy(502, "backend_error", "grpc-proxy: the reset hook at " + server.resolve(RESET)
                    + " did not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return errors.proxy(502, "backend_error", "grpc-proxy: interrupted");
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return q;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            q.put(k, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return q;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    @Override
    public void close() {
        listener.stop(0);
        workers.shutdownNow();
        channel.shutdownNow();
        try {
            channel.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
