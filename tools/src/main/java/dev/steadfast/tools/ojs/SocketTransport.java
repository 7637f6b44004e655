package dev.steadfast.tools.ojs;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Requests over pooled keep-alive sockets, one blocking HTTP/1.1 exchange at a time per socket. Kept for the load
 * tools alone because the client must not measure itself: on the 2-core machine the JDK HttpClient spent about
 * four times this transport's CPU per job (W2 with 8 workers, 5,000 jobs, 2026-11-26, four HttpClient runs, two of
 * them with a same-thread executor, and three of this transport: 0.52-0.81 client cores against 0.22-0.29,
 * 1.5-1.8 ms against 0.43-0.44 ms of client CPU per job), which the server then lacks. Only what the server sends
 * is understood: a status line, headers, a body by Content-Length or chunked.
 */
final class SocketTransport implements Transport {

    private final String host;
    private final int port;
    private final String fixedHeaders;
    private final int connectTimeoutMs;
    private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
    private final ExecutorService async = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ojs-socket");
        t.setDaemon(true);
        return t;
    });

    SocketTransport(String base, String token, Duration connectTimeout) {
        URI uri = URI.create(base);
        this.host = uri.getHost();
        this.port = uri.getPort() < 0 ? 80 : uri.getPort();
        this.connectTimeoutMs = (int) connectTimeout.toMillis();
        this.fixedHeaders = "Host: " + host + ":" + port + "\r\nAccept: " + OjsClient.MEDIA_TYPE + "\r\n"
                + (token == null ? "" : "Authorization: Bearer " + token + "\r\n");
    }

    @Override
    public Reply exchange(Exchange e) throws IOException {
        Connection c = idle.poll();
        try {
            if (c == null) {
                c = new Connection();
            }
            Reply r = c.exchange(e);
            if (c.reusable) {
                idle.push(c);
            } else {
                c.close();
            }
            return r;
        } catch (IOException ex) {
            if (c != null) {
                c.close();
            }
            throw ex;
        }
    }

    /** One blocking exchange per task: the callers' own limits bound how many sockets are busy. */
    @Override
    public CompletableFuture<Reply> exchangeAsync(Exchange e) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        try {
            async.execute(() -> {
                try {
                    f.complete(exchange(e));
                } catch (IOException | RuntimeException ex) {
                    f.completeExceptionally(ex);
                }
            });
        } catch (RuntimeException ex) {
            f.completeExceptionally(ex);
        }
        return f;
    }

    @Override
    public void close() {
        async.shutdownNow();
        for (Connection c = idle.poll(); c != null; c = idle.poll()) {
            c.close();
        }
    }

    private final class Connection {
        private final Socket socket = new Socket();
        private final InputStream in;
        private final OutputStream out;
        private boolean reusable = true;

        Connection() throws IOException {
            socket.connect(new InetSocketAddress(host, port), connectTimeoutMs);
            socket.setTcpNoDelay(true);
            in = new BufferedInputStream(socket.getInputStream(), 65536);
            out = new BufferedOutputStream(socket.getOutputStream(), 65536);
        }

        Reply exchange(Exchange e) throws IOException {
            byte[] body = e.body() == null ? null : e.body().getBytes(StandardCharsets.UTF_8);
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, e.timeout().toMillis()));
            StringBuilder head = new StringBuilder(256).append(e.method()).append(' ').append(e.path())
                    .append(" HTTP/1.1\r\n").append(fixedHeaders).append("X-Request-Id: ").append(e.requestId())
                    .append("\r\n");
            if (body != null) {
                head.append("Content-Type: ").append(OjsClient.MEDIA_TYPE).append("\r\nContent-Length: ")
                        .append(body.length).append("\r\n");
            }
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            return read();
        }

        private Reply read() throws IOException {
            String status = line();
            if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
                throw new IOException("bad status line: " + status);
            }
            int code = Integer.parseInt(status.substring(9, 12));
            long length = 0;
            boolean chunked = false;
            for (String h = line(); !h.isEmpty(); h = line()) {
                int colon = h.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = h.substring(0, colon).trim();
                String value = h.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    length = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                    chunked = value.equalsIgnoreCase("chunked");
                } else if (name.equalsIgnoreCase("Connection")) {
                    reusable = !value.equalsIgnoreCase("close");
                }
            }
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            if (chunked) {
                for (int n = chunkSize(); n > 0; n = chunkSize()) {
                    buf.write(bytes(n));
                    line();
                }
                for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
                    // trailers: none expected, skipped
                }
            } else if (length > 0) {
                buf.write(bytes((int) length));
            }
            return new Reply(code, buf.toString(StandardCharsets.UTF_8));
        }

        private byte[] bytes(int n) throws IOException {
            byte[] b = in.readNBytes(n);
            if (b.length < n) {
                throw new IOException("connection closed");
            }
            return b;
        }

        private int chunkSize() throws IOException {
            return Integer.parseInt(line().split(";")[0].trim(), 16);
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int b = in.read(); b >= 0; b = in.read()) {
                if (b == '\n') {
                    int n = sb.length();
                    return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
                }
                sb.append((char) b);
            }
            throw new IOException("connection closed");
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
