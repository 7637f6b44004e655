package dev.steadfast.commands;

import dev.steadfast.console.auth.PasswordHash;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@code hash-password [--stdin]}: makes a console password hash for steadfast.console.password-hash
 * (STEADFAST_CONSOLE_PASSWORD_HASH). Without arguments it asks for the password twice on the terminal (not echoed);
 * with {@code --stdin} it reads the first line of standard input. The output is
 * {@code pbkdf2-sha256$<iterations>$<salt>$<hash>} ({@link PasswordHash}: PBKDF2-HMAC-SHA256, {@value #ITERATIONS}
 * iterations, 16-byte salt, base64). The password is never an argument: it would end up in the shell history and
 * the process list.
 */
final class HashPasswordCommand {

    static final int ITERATIONS = 600_000;
    static final int MIN_LENGTH = 12;

    private HashPasswordCommand() {
    }

    /** {@code terminal} is null when there is none (then only {@code --stdin} works). */
    static int run(String[] args, InputStream in, Console terminal, PrintStream out, PrintStream err) {
        char[] password;
        if (args.length == 1 && args[0].equals("--stdin")) {
            password = firstLine(in);
        } else if (args.length == 0 && terminal != null) {
            password = terminal.readPassword("Console password: ");
            if (password == null || !Arrays.equals(password, terminal.readPassword("Again: "))) {
                err.println("The two passwords differ.");
                return 1;
            }
        } else {
            err.println("usage: " + Commands.JAR + " hash-password [--stdin]");
            return 2;
        }
        if (password.length < MIN_LENGTH) {
            err.println("Use at least " + MIN_LENGTH + " characters.");
            return 1;
        }
        out.println(PasswordHash.create(password, ITERATIONS));
        Arrays.fill(password, '\0');
        return 0;
    }

    private static char[] firstLine(InputStream in) {
        try {
            String line = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
            return line == null ? new char[0] : line.toCharArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
