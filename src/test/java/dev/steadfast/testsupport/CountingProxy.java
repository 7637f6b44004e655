package dev.steadfast.testsupport;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * A TCP proxy in front of the test PostgreSQL that reads the wire protocol passing through it and counts what the
 * server asks of the database: statements executed, statements parsed (a cached prepared statement is parsed once
 * per connection), round trips (each ReadyForQuery ends one) and transactions ended by a commit or a rollback (a
 * ReadyForQuery that returns the connection to idle), and each statement's executions by its SQL (from the Parse
 * that prepared it). Counts, not times: they do not depend on machine speed.
 *
 * <p>The counters are read through the platform MBean server (attribute {@code Counts} of {@link #MBEAN}, a
 * {@code long[]}), so a test reads them whichever class loader started the proxy (Quarkus may start test resources
 * in another than the test's).
 * Plain connections only (the test cluster has no TLS): the proxy answers an SSL or GSS request with "no" itself.
 */
public final class CountingProxy {

    public static final String MBEAN = "dev.steadfast.test:type=CountingProxy";
    public static final int EXECUTES = 0;
    public static final int PARSES = 1;
    public static final int SIMPLE_QUERIES = 2;
    public static final int ROUND_TRIPS = 3;
    public static final int COMMITS = 4;
    public static final int ROLLBACKS = 5;
    public static final int CONNECTIONS = 6;
    private static final int SIZE = 7;

    private final AtomicLongArray counts = new AtomicLongArray(SIZE);
    private final Map<String, LongAdder> statements = new ConcurrentHashMap<>();
    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;

    private CountingProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** Starts a proxy to {@code host:port} on a free loopback port and publishes its counters. */
    public static CountingProxy start(String host, int port) throws IOException {
        CountingProxy p = new CountingProxy(host, port);
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(new Counts(p.counts, p.statements), new ObjectName(MBEAN));
        } catch (JMException e) {
            throw new IOException("cannot publish the proxy's counters", e);
        }
        Thread t = new Thread(p::accept, "counting-proxy");
        t.setDaemon(true);
        t.start();
        return p;
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** The counters of the proxy started in this JVM, now (indexes: the constants above). */
    public static long[] counters() {
        try {
            return (long[]) ManagementFactory.getPlatformMBeanServer().getAttribute(new ObjectName(MBEAN), "Counts");
        } catch (JMException e) {
            throw new IllegalStateException("no counting proxy runs in this JVM", e);
        }
    }

    /** Each statement's executions so far, as "count TAB sql" lines (whitespace collapsed). */
    public static List<String> statements() {
        try {
            return List.of((String[]) ManagementFactory.getPlatformMBeanServer().getAttribute(new ObjectName(MBEAN),
                    "Statements"));
        } catch (JMException e) {
            throw new IllegalStateException("no counting proxy runs in this JVM", e);
        }
    }

    /** The management interface of the counters (a standard MBean). */
    public interface CountsMBean {
        long[] getCounts();

        String[] getStatements();
    }

    /** The counters as the platform MBean server shows them. */
    public static final class Counts implements CountsMBean {
        private final AtomicLongArray counts;
        private final Map<String, LongAdder> statements;

        Counts(AtomicLongArray counts, Map<String, LongAdder> statements) {
            this.counts = counts;
            this.statements = statements;
        }

        @Override
        public String[] getStatements() {
            return statements.entrySet().stream().map(e -> e.getValue().sum() + "\t" + e.getKey())
                    .toArray(String[]::new);
        }

        @Override
        public long[] getCounts() {
            long[] out = new long[counts.length()];
            for (int i = 0; i < out.length; i++) {
                out[i] = counts.get(i);
            }
            return out;
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(targetHost, targetPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                counts.incrementAndGet(CONNECTIONS);
                Connection c = new Connection();
                pump("counting-proxy-up", () -> c.up(client.getInputStream(), server.getOutputStream(),
                        client.getOutputStream()), client, server);
                pump("counting-proxy-down", () -> c.down(server.getInputStream(), client.getOutputStream()), client,
                        server);
            } catch (IOException e) {
                // a refused connection ends that connection only
            }
        }
    }

    private interface Pump {
        void run() throws IOException;
    }

    private static void pump(String name, Pump pump, Socket a, Socket b) {
        Thread t = new Thread(() -> {
            try {
                pump.run();
            } catch (IOException e) {
                // the connection ended
            } finally {
                close(a);
                close(b);
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** One client connection: the protocol read in both directions. */
    private final class Connection {
        private volatile boolean failed;
        private volatile boolean rolledBack;
        private boolean ready;
        /** The SQL of this connection's prepared statements by name ("" the unnamed one), and the one bound last. */
        private final Map<String, String> prepared = new HashMap<>();
        private String bound;

        /** Client to server: the startup message (no type byte), then typed messages. */
        void up(InputStream raw, OutputStream rawOut, OutputStream clientOut) throws IOException {
            DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 65536));
            OutputStream out = new BufferedOutputStream(rawOut, 65536);
            int len = in.readInt();
            byte[] body = in.readNBytes(len - 4);
            while (code(body) == 80877103 || code(body) == 80877104) {
                // an SSL or GSS encryption request (pgjdbc's sslmode=prefer): answered "no" here, as a server
                // without TLS would, before anything reaches the server; the client then sends its startup
                clientOut.write('N');
                clientOut.flush();
                len = in.readInt();
                body = in.readNBytes(len - 4);
            }
            writeInt(out, len);
            out.write(body);
            out.flush();
            while (true) {
                int type = in.read();
                if (type < 0) {
                    return;
                }
                len = in.readInt();
                byte[] message = in.readNBytes(len - 4);
                switch (type) {
                    case 'E' -> {
                        counts.incrementAndGet(EXECUTES);
                        executed(bound);
                    }
                    case 'P' -> {
                        counts.incrementAndGet(PARSES);
                        String[] nameAndSql = cstrings(message, 2);
                        prepared.put(nameAndSql[0], nameAndSql[1]);
                    }
                    case 'B' -> bound = prepared.get(cstrings(message, 2)[1]);
                    case 'Q' -> {
                        counts.incrementAndGet(SIMPLE_QUERIES);
                        executed(cstrings(message, 1)[0]);
                    }
                    default -> { }
                }
                out.write(type);
                writeInt(out, len);
                out.write(message);
                if (in.available() == 0) {
                    out.flush();
                }
            }
        }

        /** Server to client: typed messages; ReadyForQuery ends a round trip, and a transaction when it says idle. */
        void down(InputStream raw, OutputStream rawOut) throws IOException {
            DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 65536));
            OutputStream out = new BufferedOutputStream(rawOut, 65536);
            while (true) {
                int type = in.read();
                if (type < 0) {
                    return;
                }
                int len = in.readInt();
                byte[] body = in.readNBytes(len - 4);
                if (type == 'E') {
                    failed = true;
                } else if (type == 'C' && new String(body, 0, Math.min(8, body.length)).startsWith("ROLLBACK")) {
                    rolledBack = true;
                } else if (type == 'Z') {
                    readyForQuery(body[0]);
                }
                out.write(type);
                writeInt(out, len);
                out.write(body);
                if (in.available() == 0) {
                    out.flush();
                }
            }
        }

        private void readyForQuery(byte status) {
            if (!ready) {
                ready = true; // the end of the startup, not of a request
                return;
            }
            counts.incrementAndGet(ROUND_TRIPS);
            if (status == 'I') {
                counts.incrementAndGet(failed || rolledBack ? ROLLBACKS : COMMITS);
            }
            failed = false;
            rolledBack = false;
        }
    }

    private static int code(byte[] startup) {
        return ((startup[0] & 0xff) << 24) | ((startup[1] & 0xff) << 16) | ((startup[2] & 0xff) << 8)
                | (startup[3] & 0xff);
    }

    private static void writeInt(OutputStream out, int v) throws IOException {
        out.write(v >>> 24);
        out.write(v >>> 16);
        out.write(v >>> 8);
        out.write(v);
    }

    private void executed(String sql) {
        statements.computeIfAbsent(sql == null ? "(unknown)" : sql.strip().replaceAll("\\s+", " "),
                k -> new LongAdder()).increment();
    }

    /** The first {@code n} NUL-terminated strings of a message body. */
    private static String[] cstrings(byte[] body, int n) {
        String[] out = new String[n];
        int at = 0;
        for (int i = 0; i < n; i++) {
            int end = at;
            while (end < body.length && body[end] != 0) {
                end++;
            }
            out[i] = new String(body, at, end - at, StandardCharsets.UTF_8);
            at = end + 1;
        }
        return out;
    }
}
