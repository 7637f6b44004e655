package dev.steadfast.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.commands.Commands;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The stored password format, and the jar's hash-password command writing hashes the server accepts. */
class PasswordHashTest {

    @Test
    void aHashMatchesItsPasswordOnly() {
        String stored = PasswordHash.create("s3cret-passw0rd".toCharArray(), 2_000);
        assertTrue(stored.startsWith("pbkdf2-sha256$2000$"), stored);
        PasswordHash h = PasswordHash.parse(stored);
        assertTrue(h.matches("s3cret-passw0rd"));
        assertFalse(h.matches("s3cret-passw0rd "));
        assertFalse(h.matches(""));
        assertTrue(!stored.equals(PasswordHash.create("s3cret-passw0rd".toCharArray(), 2_000)), "salted");
    }

    @Test
    void unusableHashesAreRefusedWithAReason() {
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse("plaintext"));
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse("md5$1000$AAAAAAAAAAA=$AAAA"));
        IllegalArgumentException few = assertThrows(IllegalArgumentException.class,
                () -> PasswordHash.parse("pbkdf2-sha256$10$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="));
        assertTrue(few.getMessage().contains("iterations"));
    }

    @Test
    void theHashPasswordCommandWritesAHashTheServerVerifies() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Commands.run(new String[] {"hash-password", "--stdin"},
                new ByteArrayInputStream("a long console password\n".getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(1, lines.length, "one line: the hash");
        assertTrue(lines[0].startsWith("pbkdf2-sha256$600000$"), lines[0]);
        assertTrue(PasswordHash.parse(lines[0]).matches("a long console password"));
    }
}
