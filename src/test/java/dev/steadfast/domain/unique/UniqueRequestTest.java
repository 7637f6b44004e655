package dev.steadfast.domain.unique;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.unique.UniquePolicy.Dimension;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the shapes of a unique policy (unique-jobs 2, json-format 3.5, the SDKs' fields) become one policy. */
class UniqueRequestTest {

    private static final String F = "options.unique";

    private static UniqueRequest request(String customKey, List<String> keyFields, Set<Dimension> keys,
                                         List<String> argsKeys, Duration period, Long periodMs) {
        return new UniqueRequest(F, customKey, keyFields, keys, argsKeys, null, period, periodMs, null, null);
    }

    private static String refusedField(UniqueRequest r) {
        OjsException e = assertThrows(OjsException.class, r::policy);
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        return (String) e.details().get("field");
    }

    @Test
    void nothingButAPolicyDeduplicatesByTypeAndRejects() {
        UniquePolicy p = request(null, null, null, null, null, null).policy();
        assertEquals(Set.of(Dimension.TYPE), p.dimensions());
        assertNull(p.argsKeys());
        assertNull(p.period());
        assertEquals(OnConflict.REJECT, p.onConflict());
        assertEquals(UniquePolicy.DEFAULT_STATES, p.states());
    }

    @Test
    void anArrayKeyIsTheArgsDimensionOverThoseFields() {
        UniquePolicy p = request(null, List.of("order"), null, null, null, null).policy();
        assertEquals(Set.of(Dimension.ARGS), p.dimensions());
        assertEquals(List.of("order"), p.argsKeys());
        assertNull(p.customKey());
        assertEquals("options.unique.key", p.argsField());
    }

    @Test
    void anArrayKeyKeepsTheOtherDimensionsKeysNames() {
        UniquePolicy p = request(null, List.of("order"), EnumSet.of(Dimension.QUEUE), null, null, null).policy();
        assertEquals(Set.of(Dimension.QUEUE, Dimension.ARGS), p.dimensions());
    }

    @Test
    void argsKeysAreNamedAsArgsKeys() {
        UniquePolicy p = request(null, null, EnumSet.of(Dimension.ARGS), List.of("id"), null, null).policy();
        assertEquals(List.of("id"), p.argsKeys());
        assertEquals("options.unique.args_keys", p.argsField());
    }

    @Test
    void aStringKeyIsAKeyOfTheCallersOwn() {
        UniquePolicy p = request("order-7", null, null, null, null, null).policy();
        assertEquals("order-7", p.customKey());
        assertEquals(Set.of(Dimension.TYPE), p.dimensions());
    }

    @Test
    void periodMsIsThePeriodInMilliseconds() {
        assertEquals(Duration.ofMinutes(1), request(null, List.of("o"), null, null, null, 60_000L).policy().period());
        assertEquals(Duration.ofHours(1),
                request(null, List.of("o"), null, null, Duration.ofHours(1), null).policy().period());
    }

    @Test
    void ambiguousOrEmptyShapesAreRefusedNamingTheField() {
        assertEquals("options.unique.key", refusedField(request("k", null, EnumSet.of(Dimension.ARGS), null, null, null)));
        assertEquals("options.unique.key", refusedField(request("k", null, null, List.of("id"), null, null)));
        assertEquals("options.unique.key", refusedField(
                new UniqueRequest(F, "k", null, null, null, List.of("t"), null, null, null, null)));
        assertEquals("options.unique.key", refusedField(request(null, List.of(), null, null, null, null)));
        assertEquals("options.unique.args_keys", refusedField(request(null, List.of("a"), null, List.of("a"), null, null)));
        assertEquals("options.unique.period_ms",
                refusedField(request(null, null, null, null, Duration.ofHours(1), 3_600_000L)));
        assertEquals("options.unique.period_ms", refusedField(request(null, null, null, null, null, 0L)));
        assertEquals("options.unique.period_ms", refusedField(request(null, null, null, null, null, -5L)));
        assertEquals("options.unique.key", refusedField(request("", null, null, null, null, null)));
    }

    @Test
    void errorsNameWhereThePolicyWas() {
        OjsException e = assertThrows(OjsException.class, () -> new UniqueRequest("unique", null, null,
                EnumSet.of(Dimension.META), null, null, null, null, null, null).policy());
        assertEquals("unique.meta_keys", e.details().get("field"));
        UniquePolicy p = new UniqueRequest("unique", null, List.of("x"), null, null, null, null, null,
                Set.of(JobState.AVAILABLE), OnConflict.IGNORE).policy();
        assertEquals("unique.key", p.argsField());
        assertEquals(Set.of(JobState.AVAILABLE), p.states());
        assertEquals(OnConflict.IGNORE, p.onConflict());
    }
}
