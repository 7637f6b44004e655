package dev.steadfast.commands;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * The operator commands of the server jar, run instead of the server when the first argument names one, before
 * Quarkus boots (no configuration, no database, done in well under a second):
 * <pre>
 *   java -jar quarkus-run.jar token --role worker [--name NAME]   an API token and the line that accepts it
 *   java -jar quarkus-run.jar hash-password [--stdin]             a console password hash
 *   java -jar quarkus-run.jar help                                this list
 * </pre>
 * Any other start (no arguments above all) starts the server as before.
 */
public final class Commands {

    static final String JAR = "java -jar quarkus-run.jar";

    private Commands() {
    }

    /** True when {@code args} names a command, so the server is not started. */
    public static boolean isCommand(String... args) {
        return args.length > 0 && switch (args[0]) {
            case "token", "hash-password", "help", "--help" -> true;
            default -> false;
        };
    }

    /** Runs the command {@code args} names (see {@link #isCommand}); answers the process exit status. */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        return switch (args[0]) {
            case "token" -> TokenCommand.run(rest, out, err);
            case "hash-password" -> HashPasswordCommand.run(rest, in, System.console(), out, err);
            default -> help(out);
        };
    }

    private static int help(PrintStream out) {
        out.println("usage: " + JAR + " [COMMAND]");
        out.println("without a command the server starts. Commands:");
        out.println("  token --role producer|worker|admin|readonly[,...] [--name NAME]");
        out.println("        makes an API token and the steadfast.auth.tokens line that accepts it");
        out.println("  hash-password [--stdin]");
        out.println("        makes a hash for steadfast.console.password-hash (asks twice, or reads one line of stdin)");
        return 0;
    }
}
