package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The envelope's value rules, with the cases of the OJS conformance suite's envelope tests and the edges. */
class JobRulesTest {

    @ParameterizedTest
    @ValueSource(strings = {"email.send", "a", "report.generate.v2", "data_etl.transform", "retry.test.max-attempts"})
    void validTypes(String type) {
        assertEquals(type, JobRules.checkType(type));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Email.Send", "email send", "1email.send", "email@send!", ".email", "email.", "a..b"})
    void invalidTypesNameTheField(String type) {
        OjsException e = assertThrows(OjsException.class, () -> JobRules.checkType(type));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertEquals("type", e.details().get("field"));
    }

    @Test
    void typesLongerThan255AreRefused() {
        String ok = "a".repeat(255);
        assertEquals(ok, JobRules.checkType(ok));
        assertThrows(OjsException.class, () -> JobRules.checkType(ok + "a"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "email", "0queue", "a.b-c", "conformance-multi-high"})
    void validQueues(String q) {
        assertEquals(q, JobRules.checkQueue(q));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Default", "my_queue!", "-invalid", "my queue", ".dot"})
    void invalidQueues(String q) {
        OjsException e = assertThrows(OjsException.class, () -> JobRules.checkQueue(q));
        assertEquals("options.queue", e.details().get("field"));
    }

    @Test
    void priorityRangeIsMinus100To100() {
        assertEquals(-100, JobRules.checkPriority(-100));
        assertEquals(100, JobRules.checkPriority(100));
        assertThrows(OjsException.class, () -> JobRules.checkPriority(101));
        assertThrows(OjsException.class, () -> JobRules.checkPriority(-101));
        assertThrows(OjsException.class, () -> JobRules.checkPriority(999_999));
    }

    @Test
    void idsMustBeUuidV7() {
        assertEquals("019461a8-1a2b-7c3d-8e4f-5a6b7c8d9e0f", JobRules.checkId("019461a8-1a2b-7c3d-8e4f-5a6b7c8d9e0f"));
        assertThrows(OjsException.class, () -> JobRules.checkId("550e8400-e29b-41d4-a716-446655440000"));
        assertThrows(OjsException.class, () -> JobRules.checkId("not-a-uuid-at-all"));
    }

    @Test
    void tagsAreBounded() {
        assertEquals(List.of("a", "b"), JobRules.checkTags(List.of("a", "b")));
        assertThrows(OjsException.class, () -> JobRules.checkTags(List.of("")));
        assertThrows(OjsException.class, () -> JobRules.checkTags(Collections.nCopies(65, "t")));
    }

    @Test
    void millisecondDurationsMustBePositiveAndBounded() {
        assertEquals(1, JobRules.checkPositiveMillis("timeout_ms", 1, 10));
        assertThrows(OjsException.class, () -> JobRules.checkPositiveMillis("timeout_ms", 0, 10));
        assertThrows(OjsException.class, () -> JobRules.checkPositiveMillis("timeout_ms", 11, 10));
    }
}
