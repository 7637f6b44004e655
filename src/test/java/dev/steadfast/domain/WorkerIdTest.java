package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A worker's id is 1 to 255 printable characters: any script, no control character (PrintableText). */
class WorkerIdTest {

    @ParameterizedTest
    @ValueSource(strings = {"w1", "worker-ü-1", "host-3.example.com:4711/worker-2", "ワーカー", "a b", "emoji-\uD83D\uDE80",
            "\u00A0nbsp", "inverted-\u00A1"})
    void printableIdsAreAccepted(String id) {
        assertEquals(id, WorkerId.check("worker_id", id));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\u0000", "bell\u0007", "line\nbreak", "cr\r", "tab\t", "esc\u001B[31m", "\u001F",
            "del\u007F", "c1-\u0080", "nel\u0085", "c1-\u009F"})
    void anIdWithAControlCharacterIsRefusedNamingTheField(String id) {
        OjsException e = assertThrows(OjsException.class, () -> WorkerId.check("worker_id", id));

        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertEquals("worker_id", e.details().get("field"));
        String received = (String) e.details().get("received");
        assertTrue(received.startsWith("a control character (U+"), received);
        assertTrue(received.chars().noneMatch(Character::isISOControl), "the refusal echoes no control character");
    }

    @Test
    void theRefusalSaysWhichControlCharacterAndWhere() {
        OjsException e = assertThrows(OjsException.class, () -> WorkerId.check("acks[2].worker_id", "ab\u0007c"));

        assertEquals("acks[2].worker_id", e.details().get("field"));
        assertEquals("a control character (U+0007) at index 2", e.details().get("received"));
    }

    @Test
    void anIdIsOneTo255Characters() {
        String longest = "w".repeat(WorkerId.MAX_LENGTH);
        assertEquals(longest, WorkerId.check("worker_id", longest));
        OjsException tooLong = assertThrows(OjsException.class, () -> WorkerId.check("worker_id", longest + "w"));
        assertEquals("256 characters", tooLong.details().get("received"));
        OjsException empty = assertThrows(OjsException.class, () -> WorkerId.check("worker_id", ""));
        assertEquals("worker_id", empty.details().get("field"));
        assertThrows(OjsException.class, () -> WorkerId.check("worker_id", null));
    }

    @Test
    void controlCharactersAreC0DelAndC1Exactly() {
        for (int c = 0; c <= 0xA0; c++) {
            boolean control = c <= 0x1F || (c >= 0x7F && c <= 0x9F);
            assertEquals(control, PrintableText.isControl(c), String.format("U+%04X", c));
        }
        assertFalse(PrintableText.isControl(0x2028), "a line separator is a format character, not a control one");
        assertEquals(-1, PrintableText.firstControl("worker-ü-1"));
        assertEquals(3, PrintableText.firstControl("abc\u0085"));
    }
}
