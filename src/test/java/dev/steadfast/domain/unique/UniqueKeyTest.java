package dev.steadfast.domain.unique;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.unique.UniquePolicy.Dimension;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The uniqueness key of ojs-unique-jobs.md section 4: canonical JSON, SHA-256, the dimensions and their filters. */
class UniqueKeyTest {

    static UniquePolicy policy(Dimension... dims) {
        return new UniquePolicy(dims.length == 0 ? EnumSet.noneOf(Dimension.class) : EnumSet.of(dims[0], dims),
                null, null, null, null, null, null);
    }

    @Test
    void canonicalJsonSortsKeysAtEveryLevelAndWritesNoWhitespace() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("b", 2);
        inner.put("a", List.of(1.5, "x", true));
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("z", inner);
        outer.put("m", null);
        assertEquals("{\"m\":null,\"z\":{\"a\":[1.5,\"x\",true],\"b\":2}}", CanonicalJson.write(outer));
    }

    @Test
    void canonicalJsonNormalisesStringsToNfcAndWritesNumbersAsRfc8785Does() {
        assertEquals("\"\u00e9\"", CanonicalJson.write("e\u0301"));
        assertEquals("\"a\\nb\\u0001\"", CanonicalJson.write("a\nb\u0001"));
        assertEquals("[1,100,1e+21,1e-7,0.5,0]", CanonicalJson.write(List.of(1.0, 100, 1e21, 1e-7, 0.5, -0.0)));
    }

    @Test
    void theSpecExampleFingerprintsTypeQueueAndTheSelectedArgs() {
        UniquePolicy p = new UniquePolicy(EnumSet.of(Dimension.TYPE, Dimension.QUEUE, Dimension.ARGS),
                List.of("user_id"), null, null, null, null, null);
        List<Object> args = List.of(Map.of("user_id", 42, "template", "welcome", "locale", "en-US"));
        assertEquals("{\"args\":{\"user_id\":42},\"queue\":\"notifications\",\"type\":\"email.send\"}",
                CanonicalJson.write(UniqueKey.fingerprint(p, "email.send", "notifications", args, Map.of())));
        String key = UniqueKey.of(p, "email.send", "notifications", args, Map.of());
        assertEquals(UniqueKey.sha256("{\"args\":{\"user_id\":42},\"queue\":\"notifications\",\"type\":\"email.send\"}"),
                key);
        assertEquals(64, key.length());
        List<Object> other = List.of(Map.of("user_id", 42, "template", "reset"));
        assertEquals(key, UniqueKey.of(p, "email.send", "notifications", other, Map.of()), "non-key args do not count");
    }

    @Test
    void typeAlwaysCountsAndUnlistedDimensionsDoNot() {
        UniquePolicy byType = policy();
        assertEquals(UniqueKey.of(byType, "a.b", "q1", List.of(1), Map.of()),
                UniqueKey.of(byType, "a.b", "q2", List.of(2), Map.of("x", 1)));
        assertNotEquals(UniqueKey.of(byType, "a.b", "q", List.of(), Map.of()),
                UniqueKey.of(byType, "a.c", "q", List.of(), Map.of()));
        UniquePolicy byQueue = policy(Dimension.QUEUE);
        assertNotEquals(UniqueKey.of(byQueue, "a.b", "q1", List.of(), Map.of()),
                UniqueKey.of(byQueue, "a.b", "q2", List.of(), Map.of()));
    }

    @Test
    void metaCountsOnlyTheNamedKeysAndMustNameSome() {
        UniquePolicy p = new UniquePolicy(EnumSet.of(Dimension.META), null, List.of("tenant"), null, null, null, null);
        assertEquals(UniqueKey.of(p, "t", "q", List.of(), Map.of("tenant", "acme", "trace", "1")),
                UniqueKey.of(p, "t", "q", List.of(), Map.of("tenant", "acme", "trace", "2")));
        assertThrows(OjsException.class,
                () -> new UniquePolicy(EnumSet.of(Dimension.META), null, null, null, null, null, null));
    }

    @Test
    void argsKeysMustExistInTheFirstArgumentObject() {
        UniquePolicy p = new UniquePolicy(EnumSet.of(Dimension.ARGS), List.of("id"), null, null, null, null, null);
        OjsException e = assertThrows(OjsException.class,
                () -> UniqueKey.of(p, "t", "q", List.of(Map.of("other", 1)), Map.of()));
        assertEquals("options.unique.args_keys", e.details().get("field"));
        assertThrows(OjsException.class, () -> UniqueKey.of(p, "t", "q", List.of("scalar"), Map.of()));
    }

    @Test
    void anArrayKeyNamesArgsFieldsAndHashesAsTheSameArgsKeysDo() {
        UniquePolicy byKey = new UniqueRequest("options.unique", null, List.of("report_id"), null, null, null, null,
                null, null, null).policy();
        UniquePolicy byArgsKeys = new UniquePolicy(EnumSet.of(Dimension.TYPE, Dimension.ARGS), List.of("report_id"),
                null, null, null, null, null);
        List<Object> args = List.of(Map.of("report_id", 42, "format", "pdf"));
        assertEquals("{\"args\":{\"report_id\":42},\"type\":\"report.generate\"}",
                CanonicalJson.write(UniqueKey.fingerprint(byKey, "report.generate", "reports", args, Map.of())));
        assertEquals(UniqueKey.of(byArgsKeys, "report.generate", "q", args, Map.of()),
                UniqueKey.of(byKey, "report.generate", "q", args, Map.of()), "ojs-json-format 11.4 = unique-jobs 2");
        OjsException e = assertThrows(OjsException.class,
                () -> UniqueKey.of(byKey, "report.generate", "q", List.of(Map.of("format", "pdf")), Map.of()));
        assertEquals("options.unique.key", e.details().get("field"));
        assertEquals("report_id", e.details().get("received"));
        e = assertThrows(OjsException.class, () -> UniqueKey.of(byKey, "report.generate", "q", List.of(42), Map.of()));
        assertEquals("options.unique.key", e.details().get("field"));
    }

    @Test
    void aCustomKeyReplacesTheDimensions() {
        UniquePolicy p = new UniquePolicy(EnumSet.of(Dimension.ARGS), null, null, "order-7", null, null, null);
        assertEquals(UniqueKey.of(p, "t", "q1", List.of(1), Map.of()), UniqueKey.of(p, "t", "q2", List.of(2), Map.of()));
        assertEquals("{\"key\":\"order-7\",\"type\":\"t\"}",
                CanonicalJson.write(UniqueKey.fingerprint(p, "t", "q", List.of(), Map.of())));
    }
}
