package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.retry.HandlerCode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FailureReportTest {

    @Test
    void anExplicitTypeWins() {
        FailureReport r = FailureReport.of("DISCARD", "payment.card_declined", "declined", null,
                Map.of("error_class", "Other"));
        assertEquals("payment.card_declined", r.type());
        assertEquals(HandlerCode.DISCARD, r.handlerCode().orElseThrow());
        assertEquals("handler_error", r.code());
    }

    @Test
    void errorClassInDetailsNamesTheType() {
        FailureReport r = FailureReport.of("handler_error", null, "boom", false, Map.of("error_class", "Auth.TokenExpired"));
        assertEquals("Auth.TokenExpired", r.type());
        assertEquals(Boolean.FALSE, r.retryable());
        assertTrue(r.handlerCode().isEmpty());
    }

    @Test
    void aCodeThatIsNeitherAnOjsCodeNorAHandlerCodeIsTheWorkersErrorType() {
        FailureReport r = FailureReport.of("payment.card_stolen", null, "stolen", null, null);
        assertEquals("payment.card_stolen", r.type());
        assertEquals("handler_error", r.code());
    }

    @Test
    void anOjsCodeIsKeptAsTheCode() {
        FailureReport r = FailureReport.of("timeout", null, "took too long", null, null);
        assertEquals("timeout", r.code());
        assertEquals("Timeout", r.type());
    }

    @Test
    void messagesAreClassifiedWhenNothingNamesTheType() {
        assertEquals("ConnectionTimeout", FailureReport.classify("Database connection timed out", "handler_error"));
        assertEquals("Timeout", FailureReport.classify("request timeout after 30s", "handler_error"));
        assertEquals("RateLimitExceeded", FailureReport.classify("API rate limit reached", "handler_error"));
        assertEquals("ConnectionError", FailureReport.classify("connect ECONNREFUSED 10.0.0.1:5432", "handler_error"));
        assertEquals("PermissionDenied", FailureReport.classify("403 Forbidden", "handler_error"));
        assertEquals("NotFound", FailureReport.classify("user 42 not found", "handler_error"));
        assertEquals(FailureReport.UNCLASSIFIED_TYPE, FailureReport.classify("Unexpected null reference", "handler_error"));
        assertEquals(FailureReport.UNCLASSIFIED_TYPE, FailureReport.classify(null, null));
    }

    @Test
    void anErrorWithoutTypeGetsANeutralNameNeverOneThatBlamesTheServer() {
        // what @openjobspec/sdk 0.4.0 sends when a handler throws: no type, code handler_error, the stack in details
        FailureReport js = FailureReport.of("handler_error", null, "Cannot read properties of undefined", true,
                Map.of("stack", "TypeError: Cannot read properties of undefined\n    at handler"));
        assertEquals("HandlerError", js.type(), "the handler threw: its stack says so");
        assertEquals("HandlerError", FailureReport.of(null, null, "boom", null, Map.of("backtrace", List.of("a"))).type());
        assertEquals("InternalServerError", FailureReport.of(null, null, "boom", null, null).type(),
                "no stack: the name the conformance suite asks for");
        assertEquals("InternalServerError", FailureReport.of("FAIL", null, "boom", null, Map.of()).type());
        assertEquals("InvalidPayload", FailureReport.of("invalid_payload", null, "bad input", null, null).type());
        assertEquals("Cancelled", FailureReport.of("cancelled", null, "stopped", null, null).type());
        assertEquals("handler_not_found", FailureReport.of("handler_not_found", null, "no handler", null, null).type(),
                "a code that is not an OJS code is the worker's own type");
    }

    @Test
    void missingFieldsGetDefaults() {
        FailureReport r = FailureReport.of(null, null, null, null, null);
        assertEquals("handler_error", r.code());
        assertEquals("", r.message());
        assertEquals(FailureReport.UNCLASSIFIED_TYPE, r.type());
        assertEquals("InternalServerError", FailureReport.UNCLASSIFIED_TYPE);
    }
}
