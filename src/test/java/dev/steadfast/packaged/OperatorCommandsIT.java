package dev.steadfast.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The operator commands of the packaged jar run where only the jar is: no source tree, no configuration, no
 * database (the process gets none of the suite's datasource settings), and exit instead of starting the server.
 */
class OperatorCommandsIT {

    static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");

    /** Runs {@code java -jar quarkus-run.jar args...} with {@code stdin}; answers its exit status and output. */
    static List<String> run(String stdin, int status, String... args) throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(JAR), JAR + " is built by the package phase");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new java.util.ArrayList<>(List.of(java, "-jar", JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().keySet().removeIf(k -> k.startsWith("QUARKUS_") || k.startsWith("STEADFAST_"));
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the command exits");
        assertEquals(status, p.exitValue(), out);
        return out.lines().toList();
    }

    @Test
    void tokenPrintsATokenAndTheLineThatAcceptsIt() throws Exception {
        List<String> out = run("", 0, "token", "--role", "worker", "--name", "ci-worker");
        assertEquals(6, out.size(), out::toString);
        String token = out.get(1).trim();
        assertTrue(token.matches("stf_[A-Za-z0-9_-]{43}"), token);
        assertEquals("  steadfast.auth.tokens.\"ci-worker\"=worker:sha256:" + PackagedApp.sha256(token), out.get(3));
        assertEquals("  STEADFAST_AUTH_TOKENS_CI_WORKER=worker:sha256:" + PackagedApp.sha256(token), out.get(5));
    }

    @Test
    void hashPasswordReadsStandardInput() throws Exception {
        List<String> out = run("a long console password\n", 0, "hash-password", "--stdin");
        assertEquals(1, out.size(), out::toString);
        assertTrue(out.get(0).matches("pbkdf2-sha256\\$600000\\$[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}"), out.get(0));
    }

    @Test
    void aBadArgumentIsAUsageErrorNotAServerStart() throws Exception {
        assertEquals(List.of(), run("", 2, "token", "--role", "root"));
    }
}
