package dev.steadfast.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.http.ApiTokens;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The server jar's operator commands: what they print, and which arguments start the server instead. */
class CommandsTest {

    /** A command's exit status and what it wrote. */
    record Run(int status, String out, String err) {
    }

    static Run run(String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Commands.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void onlyTheNamedCommandsKeepTheServerFromStarting() {
        assertFalse(Commands.isCommand(), "no arguments: the server");
        assertFalse(Commands.isCommand("-Dx=y"));
        assertTrue(Commands.isCommand("token", "--role", "worker"));
        assertTrue(Commands.isCommand("hash-password"));
        assertTrue(Commands.isCommand("help"));
    }

    @Test
    void aTokenComesWithTheLineThatAcceptsIt() {
        Run r = run("", "token", "--role", "producer,readonly", "--name", "billing");
        assertEquals(0, r.status(), r.err());
        Matcher m = Pattern.compile("""
                token \\(give it to the client, shown once\\):
                  (stf_[A-Za-z0-9_-]{43})
                server configuration \\(application.properties\\):
                  steadfast.auth.tokens."billing"=(producer,readonly:sha256:[0-9a-f]{64})
                or as an environment variable:
                  STEADFAST_AUTH_TOKENS_BILLING=(producer,readonly:sha256:[0-9a-f]{64})
                """).matcher(r.out());
        assertTrue(m.matches(), r.out());
        assertEquals(m.group(2), m.group(3));
        ApiTokens tokens = ApiTokens.parse(Map.of("billing", m.group(2)));
        assertEquals("billing", tokens.find(m.group(1)).name(), "the server accepts the token it was made with");
        assertEquals(null, tokens.find(m.group(1) + "x"));
    }

    @Test
    void aTokenWithoutANameIsNamedAfterItsRoles() {
        Run r = run("", "token", "--role", "worker");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().matches("(?s).*steadfast\\.auth\\.tokens\\.\"worker-[0-9a-f]{6}\"=worker:sha256:.*"),
                r.out());
    }

    @Test
    void badArgumentsSayWhatIsExpected() {
        Run none = run("", "token");
        assertEquals(2, none.status());
        assertTrue(none.err().startsWith("usage: java -jar quarkus-run.jar token --role"), none.err());
        assertEquals("", none.out());
        Run role = run("", "token", "--role", "root");
        assertEquals(2, role.status());
        assertTrue(role.err().contains("unknown role 'root'"), role.err());
        Run name = run("", "token", "--role", "admin", "--name", "Ops Team");
        assertEquals(2, name.status());
        assertTrue(name.err().contains("--name takes lower-case letters"), name.err());
    }

    @Test
    void aPasswordHashRefusesShortPasswordsAndArguments() {
        Run shortOne = run("too short\n", "hash-password", "--stdin");
        assertEquals(1, shortOne.status());
        assertEquals("Use at least 12 characters.\n", shortOne.err().replace("\r", ""));
        assertEquals("", shortOne.out());
        Run asArgument = run("", "hash-password", "my password here");
        assertEquals(2, asArgument.status());
        assertTrue(asArgument.err().startsWith("usage: java -jar quarkus-run.jar hash-password [--stdin]"));
    }

    @Test
    void helpListsTheCommands() {
        Run r = run("", "help");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("token --role") && r.out().contains("hash-password [--stdin]"), r.out());
    }
}
