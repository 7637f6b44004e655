package dev.steadfast.tools.grpcproxy;

import dev.steadfast.tools.Exit;
import dev.steadfast.tools.LocalUrl;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;

/**
 * {@code grpc-proxy}: an HTTP front for a local server's gRPC binding ({@link GrpcProxy}), so that the HTTP
 * conformance runner replays its cases over gRPC ({@code scripts/grpc-replay.sh}). Prints one line once it listens
 * and runs until it is stopped (SIGTERM, Ctrl-C).
 */
public final class GrpcProxyCommand {

    static final String USAGE = "usage: java -jar tools/target/steadfast-tools.jar grpc-proxy"
            + " [--url http://127.0.0.1:8080] [--listen 8090] [--token T]";

    private GrpcProxyCommand() {
    }

    public static int run(String[] args) throws IOException, InterruptedException {
        int port = 8080, listen = 8090;
        String token = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> port = LocalUrl.port(value(args, ++i));
                case "--listen" -> listen = port(value(args, ++i));
                case "--token" -> token = value(args, ++i);
                default -> throw Exit.usage(USAGE, args[i].equals("--help"));
            }
        }
        GrpcProxy proxy = new GrpcProxy(port, listen, token);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            stopped.countDown();
        }));
        System.out.println("grpc-proxy: listening on http://127.0.0.1:" + proxy.port()
                + "; each OJS HTTP request becomes its ojs.v1.OJSService RPC at 127.0.0.1:" + port
                + " (h2c); only POST " + GrpcProxy.RESET + " (the test hook) goes to that port over HTTP");
        stopped.await();
        return 0;
    }

    private static int port(String s) {
        try {
            int p = Integer.parseInt(s);
            if (p >= 0 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new Exit(2, "--listen must be a port number (0-65535), not " + s);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new Exit(2, "missing value for " + args[i - 1]);
        }
        return args[i];
    }
}
