package dev.steadfast.tools.fuzz;

import dev.steadfast.tools.Exit;
import dev.steadfast.tools.LocalUrl;

/**
 * {@code fuzz}: malformed requests to every endpoint of a server on this machine, beside well-formed traffic that
 * must succeed ({@link Fuzzer}). Prints the counts, a {@code RESULT total=N 5xx=N without_envelope=N
 * good_failed=N io_errors=N} line and the first examples; exits 1 when any count but total is not 0.
 */
public final class FuzzCommand {

    static final String USAGE = "usage: java -jar tools/target/steadfast-tools.jar fuzz [--url http://127.0.0.1:8080]"
            + " [--requests 2000] [--concurrency 8] [--seed 1] [--token T] [--max-seconds 300]";

    private FuzzCommand() {
    }

    public static int run(String[] args) throws InterruptedException {
        Fuzzer.Options o = parse(args);
        return new Fuzzer(o).run(System.out).clean() ? 0 : 1;
    }

    static Fuzzer.Options parse(String[] args) {
        int port = 8080, requests = 2000, concurrency = 8;
        long seed = 1, maxSeconds = 300;
        String token = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> port = LocalUrl.port(value(args, ++i));
                case "--requests" -> requests = Integer.parseInt(value(args, ++i));
                case "--concurrency" -> concurrency = Integer.parseInt(value(args, ++i));
                case "--seed" -> seed = Long.parseLong(value(args, ++i));
                case "--token" -> token = value(args, ++i);
                case "--max-seconds" -> maxSeconds = Long.parseLong(value(args, ++i));
                default -> throw Exit.usage(USAGE, args[i].equals("--help"));
            }
        }
        return new Fuzzer.Options(port, token, requests, concurrency, seed, maxSeconds);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new Exit(2, "missing value for " + args[i - 1]);
        }
        return args[i];
    }
}
