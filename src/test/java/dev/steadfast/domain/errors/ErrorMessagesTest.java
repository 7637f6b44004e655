package dev.steadfast.domain.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ErrorMessagesTest {

    private static void reads(String expected, String message) {
        assertEquals(expected, ErrorMessages.normalise(message), message);
    }

    @Test
    void numbersAreMasked() {
        reads("upstream said <n> after <n>s", "upstream said 503 after 2.5s");
        reads("retry <n> of <n>", "retry 3 of 10");
        reads("total <n> items", "total 1,234,567 items");
        reads("at <n>", "at 12:30:05");
    }

    @Test
    void idsUuidsAndHexAreMasked() {
        reads("job <uuid> not found", "job 0190f4b2-7c1e-7a3b-9d2e-1f2a3b4c5d6e not found");
        reads("job <uuid> not found", "job 0190F4B2-7C1E-7A3B-9D2E-1F2A3B4C5D6E not found");
        reads("segfault at <hex>", "segfault at 0x7ffd5e3c");
        reads("commit <hex> missing", "commit 9f2c4e1ab3 missing");
        reads("order <id> declined", "order ord_01HXZ3K9QW8E7R6T5Y declined");
        reads("user_<n> locked", "user_42 locked");
    }

    @Test
    void quotedValuesEmailsAndUrlsAreMasked() {
        reads("no such key \"?\"", "no such key \"customer:991\"");
        reads("bad value '?' for field '?'", "bad value 'abc' for field 'zip'");
        reads("column `?` is null", "column `email` is null");
        reads("mailbox <email> is full", "mailbox jane.doe+news@example.co.uk is full");
        reads("GET <url> returned <n>", "GET https://api.example.com/v1/orders/77?x=1 returned 502");
    }

    @Test
    void anApostropheInAWordIsNotAQuote() {
        reads("can't reach host, don't retry", "can't reach host, don't retry");
    }

    @Test
    void wordsAndTypesStayWhitespaceCollapses() {
        reads("Connection refused", "  Connection \n\t refused ");
        reads("", null);
        reads("", "   ");
    }

    @Test
    void theSameCauseReadsTheSame() {
        assertEquals(ErrorMessages.normalise("Job 42 failed for 'a@b.io' after 3.5s"),
                ErrorMessages.normalise("Job 7 failed for 'x' after 10s"));
    }

    @Test
    void longMessagesAreBounded() {
        String s = ErrorMessages.normalise("word ".repeat(10_000));
        assertTrue(s.length() <= ErrorMessages.MAX_CHARS);
        assertEquals(ErrorMessages.normalise("x".repeat(ErrorMessages.READ_CHARS)),
                ErrorMessages.normalise("x".repeat(ErrorMessages.READ_CHARS) + " tail 1"));
    }

    @Test
    void theGroupKeyIsTypeAndNormalisedMessage() {
        ErrorGroupKey a = ErrorGroupKey.of("Timeout", "call 12 timed out");
        ErrorGroupKey b = ErrorGroupKey.of(" Timeout ", "call 9913 timed out");
        assertEquals(a, b);
        assertEquals("call <n> timed out", a.message());
        assertNotEquals(a.fingerprint(), ErrorGroupKey.of("IOError", "call 12 timed out").fingerprint());
        assertNotEquals(a.fingerprint(), ErrorGroupKey.of("Timeout", "call 12 failed").fingerprint());
        // the separator: type "ab" + message "c" is not type "a" + message "bc"
        assertNotEquals(ErrorGroupKey.of("ab", "c").fingerprint(), ErrorGroupKey.of("a", "bc").fingerprint());
        assertEquals("", ErrorGroupKey.of(null, null).type());
        assertEquals(ErrorGroupKey.MAX_TYPE_CHARS, ErrorGroupKey.of("T".repeat(500), "m").type().length());
    }
}
