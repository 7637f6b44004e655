package dev.steadfast.tools.bench;

import dev.steadfast.tools.Exit;
import dev.steadfast.tools.measure.PortOwner;
import dev.steadfast.tools.ojs.OjsClient;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code bench}: a load tool for Steadfast, or any server speaking the OJS HTTP binding (ojs-http-binding.md 9.1,
 * 9.2, 10.1, 10.2). Either the classic phases ({@link Phases}: enqueue, batch-enqueue, process) or the workloads of
 * the peer benchmark ({@link Workloads}: W1-W4, driven side by side by scripts/bench-peers.sh). A warm-up comes
 * first and is not counted. Every line shows the cores this tool and (with --server-pid) the server used, so a
 * client-bound run is visible. W2's workers can also fetch and ack over the OJS gRPC binding ({@link GrpcWorkers},
 * {@code --transport grpc|grpc-stream}); pushes stay HTTP.
 *
 * <p>How: the shared {@link OjsClient}, over raw keep-alive sockets by default ({@code --client jdk}: the JDK
 * HttpClient); requests in flight are bounded by semaphores over async requests; worker loops block on FETCH like a
 * real worker and ACK asynchronously. Latencies are per-request {@link System#nanoTime()} deltas in HdrHistograms.
 *
 * <p>Exit codes: 0 success; 1 acked != enqueued, jobs lost, duplicates, or failed requests; 2 usage error or
 * unreachable server.
 */
public final class BenchCommand {

    private BenchCommand() {
    }

    public static int run(String[] args) throws InterruptedException {
        BenchOptions opt;
        try {
            opt = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            throw new Exit(2, "error: " + e.getMessage() + " (see --help)");
        }
        if (opt.help) {
            throw Exit.usage(BenchOptions.USAGE, true);
        }
        try (OjsClient client = OjsClient.to(opt.url).token(opt.token).rawSockets(opt.client.equals("raw"))
                .timeout(Duration.ofSeconds(Math.min(opt.timeout, 30)))
                .requestIds("bench-" + ProcessHandle.current().pid()).build()) {
            client.checkReachable();
            Bench bench = new Bench(opt, client, serverPid(opt));
            return opt.workloads.isEmpty() ? new Phases(bench).run() : new Workloads(bench).run();
        } catch (IOException e) {
            throw new Exit(2, "error: " + e.getMessage());
        }
    }

    /** --server-pid: the number given, or with {@code auto} the process listening on the URL's port. */
    private static long serverPid(BenchOptions opt) {
        if (opt.serverPid == null) {
            return -1;
        }
        if (!opt.serverPid.equals("auto")) {
            long pid = Long.parseLong(opt.serverPid);
            if (!Files.isReadable(Path.of("/proc/" + pid + "/status"))) {
                throw new Exit(2, "error: no readable process with pid " + pid);
            }
            return pid;
        }
        URI uri = URI.create(opt.url);
        int port = uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equals("https") ? 443 : 80;
        long pid = PortOwner.pidListeningOn(port);
        if (pid < 0) {
            System.out.println("note: --server-pid auto found no readable process listening on port " + port
                    + "; RSS not reported (pass the PID)");
        } else {
            System.out.println("note: server pid " + pid + " (" + PortOwner.comm(pid) + ") listens on port " + port);
        }
        return pid;
    }
}
