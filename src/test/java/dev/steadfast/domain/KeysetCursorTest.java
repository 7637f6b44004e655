package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class KeysetCursorTest {

    @Test
    void aCursorComesBackAsThePositionItWasMadeFrom() {
        KeysetCursor c = new KeysetCursor(Instant.parse("2026-11-26T10:00:00.123456Z"),
                UUID.fromString("019ab4c2-0000-7000-8000-000000000001"));
        String s = c.encode();
        assertTrue(s.matches("[A-Za-z0-9_-]+"), "base64url without padding: " + s);
        assertEquals(c, KeysetCursor.decode("cursor", s));
        assertEquals(c, KeysetCursor.decode("cursor", " " + s + " "));
    }

    @Test
    void noCursorIsTheFirstPage() {
        assertNull(KeysetCursor.decode("cursor", null));
        assertNull(KeysetCursor.decode("cursor", "  "));
    }

    @Test
    void aCursorThisServerDidNotIssueIsA400NamingTheField() {
        String notOurs = Base64.getUrlEncoder().encodeToString("yesterday|42".getBytes(StandardCharsets.UTF_8));
        for (String bad : new String[] {"%%%", notOurs, "abc"}) {
            OjsException e = assertThrows(OjsException.class, () -> KeysetCursor.decode("after", bad));
            assertEquals(400, e.code().status());
            assertTrue(e.getMessage().contains("'after'"), e.getMessage());
        }
    }
}
