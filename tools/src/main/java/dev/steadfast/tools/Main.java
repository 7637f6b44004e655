package dev.steadfast.tools;

import dev.steadfast.tools.bench.BenchCommand;
import dev.steadfast.tools.faults.FaultsCommand;
import dev.steadfast.tools.fuzz.FuzzCommand;
import dev.steadfast.tools.grpcproxy.GrpcProxyCommand;
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;

/**
 * Steadfast's command-line tools in one jar: {@code java -jar tools/target/steadfast-tools.jar COMMAND [options]}.
 * Each command takes the options the single-file scripts it replaced took, prints the same RESULT line and exits
 * with the same status.
 */
public final class Main {

    static final String USAGE = """
            usage: java -jar tools/target/steadfast-tools.jar COMMAND [options]   (COMMAND --help for its options)

              bench           load test: enqueue, batch-enqueue, fetch+ack, or the peer workloads W1-W4 (W2 also over gRPC)
              faults          several packaged instances on one database under load, killed, restarted, fuzzed
              fuzz            malformed requests to every endpoint beside well-formed traffic
              fairness        producers against workers on one queue for a fixed time
              tenant-fairness one tenant's backlog draining while another tenant's single jobs wait
              console-timing  the console's pages, timed
              grpc-proxy      an HTTP front that answers each OJS HTTP request with its gRPC call (conformance over gRPC)
            """;

    private static final String FJP_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private Main() {
    }

    public static void main(String[] args) {
        ensureAsyncPool();
        if (args.length == 0) {
            System.out.print(USAGE);
            System.exit(2);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        int status;
        try {
            status = switch (args[0]) {
                case "bench" -> BenchCommand.run(rest);
                case "faults" -> FaultsCommand.run(rest);
                case "fuzz" -> FuzzCommand.run(rest);
                case "fairness" -> FairnessCommand.run(rest);
                case "tenant-fairness" -> TenantFairnessCommand.run(rest);
                case "console-timing" -> ConsoleTimingCommand.run(rest);
                case "grpc-proxy" -> GrpcProxyCommand.run(rest);
                case "help", "--help", "-h" -> {
                    System.out.print(USAGE);
                    yield 0;
                }
                default -> {
                    System.err.println("unknown command " + args[0]);
                    System.err.print(USAGE);
                    yield 2;
                }
            };
        } catch (Exit e) {
            String m = e.getMessage();
            (e.toStdout() ? System.out : System.err).print(m.endsWith("\n") ? m : m + "\n");
            status = e.status();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = 1;
        } catch (Exception e) {
            System.err.println(args[0] + ": " + e);
            status = 2;
        }
        System.exit(status);
    }

    /**
     * HttpClient.sendAsync completes every response via CompletableFuture's default executor. With fewer than 3
     * CPUs the common pool has parallelism 1 and that executor starts one new thread per task, which more than
     * halved throughput on 2 cores. Must run before anything touches CompletableFuture.
     */
    private static void ensureAsyncPool() {
        if (System.getProperty(FJP_PARALLELISM) == null) {
            int n = Math.max(2, Runtime.getRuntime().availableProcessors());
            System.setProperty(FJP_PARALLELISM, String.valueOf(n));
        }
        if (ForkJoinPool.getCommonPoolParallelism() < 2) {
            System.err.println("note: common pool parallelism is 1; sendAsync will be slow (set -D"
                    + FJP_PARALLELISM + "=2)");
        }
    }
}
