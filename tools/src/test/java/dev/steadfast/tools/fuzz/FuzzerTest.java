package dev.steadfast.tools.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FuzzerTest {

    private static final String ENVELOPE = "{\"error\":{\"code\":\"invalid_request\",\"message\":\"Bad.\","
            + "\"request_id\":\"req_1\",\"details\":{}}}";

    @Test
    void anEnvelopeNeedsItsRequestIdEchoedAndTheVersionHeader() {
        Map<String, String> headers = Map.of("x-request-id", "req_1", "ojs-version", "1.0");
        assertTrue(Fuzzer.envelope(new RawExchange.Answer(400, headers, ENVELOPE)));
        assertFalse(Fuzzer.envelope(new RawExchange.Answer(400, Map.of("x-request-id", "req_1"), ENVELOPE)));
        assertFalse(Fuzzer.envelope(new RawExchange.Answer(400, Map.of("x-request-id", "req_2", "ojs-version", "1.0"),
                ENVELOPE)));
        assertFalse(Fuzzer.envelope(new RawExchange.Answer(400, headers, "{\"error\":{\"code\":\"x\"}}")));
        assertFalse(Fuzzer.envelope(new RawExchange.Answer(400, headers, "Bad Request")));
    }

    @Test
    void aChunkedAnswerIsPutTogether() {
        assertTrue(RawExchange.dechunk("4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n").equals("Wikipedia"));
    }
}
