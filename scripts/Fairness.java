import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fairness between producers and workers: P producer loops push single jobs as fast as they are answered while W
 * worker loops fetch and acknowledge (one ACK request per job) from the same queue, for a fixed time. Prints the
 * jobs pushed and acknowledged per second, the backlog the run left, and the workers' request latencies. No
 * assertion: a rerunnable measurement ({@code java scripts/Fairness.java --help}). JDK only, raw keep-alive
 * sockets (the JDK HttpClient costs more CPU than the server on a small machine), 127.0.0.1 only.
 */
public class Fairness {

    static int port = 8080;
    static String token;
    static int producers = 50;
    static int workers = 8;
    static int fetchCount = 10;
    static int seconds = 20;

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> {
                    Matcher m = Pattern.compile("^http://(127\\.0\\.0\\.1|localhost):(\\d+)/?$").matcher(args[++i]);
                    if (!m.matches()) {
                        usage(2);
                    }
                    port = Integer.parseInt(m.group(2));
                }
                case "--token" -> token = args[++i];
                case "--producers" -> producers = Integer.parseInt(args[++i]);
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--fetch-count" -> fetchCount = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Integer.parseInt(args[++i]);
                case "--help" -> usage(0);
                default -> usage(2);
            }
        }
        String queue = "fair-" + System.currentTimeMillis();
        LongAdder pushed = new LongAdder(), acked = new LongAdder(), fetches = new LongAdder(), failed = new LongAdder();
        List<Long> fetchNs = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> ackNs = java.util.Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        AtomicLong measuredFrom = new AtomicLong(start + Math.min(5, seconds / 4) * 1_000_000_000L);
        List<Thread> threads = new ArrayList<>();
        LongAdder pushedTimed = new LongAdder(), ackedTimed = new LongAdder();
        for (int p = 0; p < producers; p++) {
            int n = p;
            threads.add(start(() -> {
                try (Conn c = new Conn()) {
                    int k = 0;
                    while (System.nanoTime() < end) {
                        Conn.Answer a = c.send("POST", "/ojs/v1/jobs", "{\"type\":\"fair.job\",\"args\":[" + n + ","
                                + (k++) + "],\"options\":{\"queue\":\"" + queue + "\"}}");
                        if (a.status == 201) {
                            pushed.increment();
                            if (System.nanoTime() >= measuredFrom.get()) {
                                pushedTimed.increment();
                            }
                        } else {
                            failed.increment();
                        }
                    }
                } catch (IOException e) {
                    failed.increment();
                }
            }));
        }
        Pattern id = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");
        for (int w = 0; w < workers; w++) {
            String worker = "fair-worker-" + w;
            threads.add(start(() -> {
                try (Conn c = new Conn()) {
                    while (System.nanoTime() < end) {
                        long t0 = System.nanoTime();
                        Conn.Answer f = c.send("POST", "/ojs/v1/workers/fetch", "{\"queues\":[\"" + queue
                                + "\"],\"count\":" + fetchCount + ",\"worker_id\":\"" + worker + "\"}");
                        fetchNs.add(System.nanoTime() - t0);
                        fetches.increment();
                        if (f.status != 200) {
                            failed.increment();
                            continue;
                        }
                        Matcher m = id.matcher(f.body);
                        java.util.Set<String> ids = new java.util.LinkedHashSet<>();
                        while (m.find()) {
                            ids.add(m.group(1)); // the answer carries the first job twice ("job" and "jobs")
                        }
                        for (String jobId : ids) {
                            long t1 = System.nanoTime();
                            Conn.Answer a = c.send("POST", "/ojs/v1/workers/ack", "{\"job_id\":\"" + jobId
                                    + "\",\"worker_id\":\"" + worker + "\"}");
                            ackNs.add(System.nanoTime() - t1);
                            if (a.status == 200) {
                                acked.increment();
                                if (System.nanoTime() >= measuredFrom.get()) {
                                    ackedTimed.increment();
                                }
                            } else {
                                failed.increment();
                            }
                        }
                    }
                } catch (IOException e) {
                    failed.increment();
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        double timed = (end - measuredFrom.get()) / 1e9;
        System.out.printf("producers %d, workers %d (fetch %d, one ACK per job), %d s (rates over the last %.0f s)%n",
                producers, workers, fetchCount, seconds, timed);
        System.out.printf("pushed %d (%.0f jobs/s), acknowledged %d (%.0f acks/s), backlog left %d, failed requests %d%n",
                pushed.sum(), pushedTimed.sum() / timed, acked.sum(), ackedTimed.sum() / timed,
                pushed.sum() - acked.sum(), failed.sum());
        System.out.printf("worker requests: fetch p50 %.1f ms p99 %.1f ms (%d), ack p50 %.1f ms p99 %.1f ms (%d)%n",
                pct(fetchNs, 50), pct(fetchNs, 99), fetchNs.size(), pct(ackNs, 50), pct(ackNs, 99), ackNs.size());
        System.out.printf("RESULT {\"producers\":%d,\"workers\":%d,\"push_per_s\":%.0f,\"ack_per_s\":%.0f,"
                        + "\"backlog\":%d,\"failed\":%d}%n", producers, workers, pushedTimed.sum() / timed,
                ackedTimed.sum() / timed, pushed.sum() - acked.sum(), failed.sum());
    }

    static Thread start(Runnable r) {
        Thread t = new Thread(r);
        t.start();
        return t;
    }

    static double pct(List<Long> ns, int p) {
        long[] a;
        synchronized (ns) {
            a = ns.stream().mapToLong(Long::longValue).toArray();
        }
        if (a.length == 0) {
            return 0;
        }
        Arrays.sort(a);
        return a[Math.min(a.length - 1, (int) ((long) a.length * p / 100))] / 1e6;
    }

    static void usage(int code) {
        System.out.println("usage: java scripts/Fairness.java [--url http://127.0.0.1:8080] [--token T] [--producers 50]"
                + " [--workers 8] [--fetch-count 10] [--seconds 20]");
        System.exit(code);
    }

    /** One keep-alive HTTP/1.1 connection to the server. */
    static final class Conn implements AutoCloseable {
        record Answer(int status, String body) {
        }

        final Socket socket = new Socket();
        final OutputStream out;
        final InputStream in;

        Conn() throws IOException {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(60_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream());
        }

        Answer send(String method, String path, String body) throws IOException {
            byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            StringBuilder h = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            if (token != null) {
                h.append("Authorization: Bearer ").append(token).append("\r\n");
            }
            h.append("Content-Type: application/json\r\nContent-Length: ").append(b.length).append("\r\n\r\n");
            out.write(h.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.flush();
            String status = line();
            int code = Integer.parseInt(status.split(" ")[1]);
            int length = 0;
            boolean chunked = false;
            for (String l = line(); !l.isEmpty(); l = line()) {
                String lower = l.toLowerCase();
                if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(l.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                }
            }
            ByteArrayOutputStream bo = new ByteArrayOutputStream();
            if (chunked) {
                for (int n = Integer.parseInt(line().trim(), 16); n > 0; n = Integer.parseInt(line().trim(), 16)) {
                    bo.write(in.readNBytes(n));
                    line();
                }
                line();
            } else {
                bo.write(in.readNBytes(length));
            }
            return new Answer(code, bo.toString(StandardCharsets.UTF_8));
        }

        String line() throws IOException {
            StringBuilder s = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c != '\r') {
                    s.append((char) c);
                }
            }
            return s.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
