package dev.steadfast.console.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The stored password format, and scripts/HashPassword.java writing hashes the server accepts. */
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
    void theScriptWritesAHashTheServerVerifies() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "scripts/HashPassword.java", "--stdin").start();
        try (OutputStream in = p.getOutputStream()) {
            in.write("a long console password\n".getBytes(StandardCharsets.UTF_8));
        }
        String out;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            out = r.readLine();
        }
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        assertTrue(out.startsWith("pbkdf2-sha256$600000$"), out);
        assertTrue(PasswordHash.parse(out).matches("a long console password"));
    }
}
