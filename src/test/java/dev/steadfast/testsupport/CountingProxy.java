package dev.steadfast.testsupport;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLongArray;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * A TCP proxy in front of the test PostgreSQL that reads the wire protocol passing through it and counts what the
 * server asks of the database: statements executed, statements parsed (a cached prepared statement is parsed once
 * per connection), round trips (each ReadyForQuery ends one) and transactions ended by a commit or a rollback (a
 * ReadyForQuery that returns the connection to idle). Counts, not times: they do not depend on machine speed.
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
            ManagementFactory.getPlatformMBeanServer().registerMBean(new Counts(p.counts), new ObjectName(MBEAN));
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

    /** The management interface of the counters (a standard MBean). */
    public interface CountsMBean {
        long[] getCounts();
    }

    /** The counters as the platform MBean server shows them. */
    public static final class Counts implements CountsMBean {
        private final AtomicLongArray counts;

        Counts(AtomicLongArray counts) {
            this.counts = counts;
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
                switch (type) {
                    case 'E' -> counts.incrementAndGet(EXECUTES);
                    case 'P' -> counts.incrementAndGet(PARSES);
                    case 'Q' -> counts.incrementAndGet(SIMPLE_QUERIES);
                    default -> { }
                }
                out.write(type);
                writeInt(out, len);
                copy(in, out, len - 4);
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

    private static void copy(InputStream in, OutputStream out, int n) throws IOException {
        byte[] buf = new byte[Math.min(n, 65536)];
        while (n > 0) {
            int r = in.read(buf, 0, Math.min(n, buf.length));
            if (r < 0) {
                throw new EOFException();
            }
            out.write(buf, 0, r);
            n -= r;
        }
    }
}
