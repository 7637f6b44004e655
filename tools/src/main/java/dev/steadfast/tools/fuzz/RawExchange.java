package dev.steadfast.tools.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One request written byte for byte on its own connection, read to the end. An HTTP client library would clean up
 * or refuse what the fuzzer must send (a NUL or raw braces in the path, unknown methods, a GET with a body), so
 * malformed requests take this way and nothing else does.
 */
final class RawExchange {

    /** What came back: status 0 when the answer could not be parsed (its text is then the body). */
    record Answer(int status, Map<String, String> headers, String body) {
    }

    private final String host;
    private final int port;
    private final String token;

    RawExchange(String host, int port, String token) {
        this.host = host;
        this.port = port;
        this.token = token;
    }

    Answer send(String method, String path, List<String> headers, byte[] body) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 5000);
            s.setSoTimeout(30_000);
            StringBuilder req = new StringBuilder();
            req.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
            req.append("Host: ").append(host).append(':').append(port).append("\r\n");
            req.append("Connection: close\r\n");
            if (token != null) {
                req.append("Authorization: Bearer ").append(token).append("\r\n");
            }
            for (String h : headers) {
                req.append(h).append("\r\n");
            }
            if (body != null) {
                req.append("Content-Length: ").append(body.length).append("\r\n");
            }
            req.append("\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                out.write(body);
            }
            out.flush();
            return read(s.getInputStream());
        }
    }

    static Answer read(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n = in.read(buf); n > 0; n = in.read(buf)) {
                all.write(buf, 0, n);
            }
        } catch (SocketException e) {
            // the server may close after answering while we still write or read: keep what arrived
        }
        String text = all.toString(StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || end < 0) {
            return new Answer(0, Map.of(), "unparseable answer: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int c = lines[i].indexOf(':');
            if (c > 0) {
                headers.put(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
            }
        }
        String raw = text.substring(end + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            raw = dechunk(raw);
        }
        return new Answer(status, headers, new String(raw.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    static String dechunk(String s) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            int eol = s.indexOf("\r\n", i);
            if (eol < 0) {
                break;
            }
            int len;
            try {
                len = Integer.parseInt(s.substring(i, eol).split(";")[0].trim(), 16);
            } catch (NumberFormatException e) {
                return s;
            }
            if (len == 0) {
                break;
            }
            out.append(s, eol + 2, Math.min(s.length(), eol + 2 + len));
            i = eol + 2 + len + 2;
        }
        return out.toString();
    }
}
