package dev.steadfast.domain.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Versions of schemas and jobs: the forms, the order, the wire form, and a type's {@code @version}. */
class SchemaVersionTest {

    @Test
    void wholeNumbersAndDottedVersionsKeepTheirForm() {
        SchemaVersion one = SchemaVersion.parse("version", "1");
        assertEquals(1, one.wire());
        assertTrue(one.whole());
        SchemaVersion dotted = SchemaVersion.parse("version", "2.0.1");
        assertEquals("2.0.1", dotted.wire());
        assertEquals(2, dotted.major());
        assertEquals(0, dotted.minor());
        assertEquals(1, dotted.patch());
        assertEquals("1", SchemaVersion.of("version", 1L).text());
        assertEquals("1.5", SchemaVersion.of("version", "1.5").text());
    }

    @Test
    void missingPartsCountAsZero() {
        assertTrue(SchemaVersion.parse("v", "2").sameAs(SchemaVersion.parse("v", "2.0.0")));
        assertTrue(SchemaVersion.parse("v", "2.0").sameAs(SchemaVersion.parse("v", "2")));
        assertFalse(SchemaVersion.parse("v", "2.0.1").sameAs(SchemaVersion.parse("v", "2")));
    }

    @Test
    void orderIsNumericPerPartNotTextual() {
        List<SchemaVersion> all = new ArrayList<>();
        for (String s : List.of("10", "2.10", "2.9", "1.0.10", "1.0.9", "1")) {
            all.add(SchemaVersion.parse("v", s));
        }
        Collections.sort(all);
        assertEquals(List.of("1", "1.0.9", "1.0.10", "2.9", "2.10", "10"), all.stream().map(SchemaVersion::text).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0", "0.0", "0.0.0", "01", "1.02", "1.2.3.4", "v1", "1.", ".1", "-1", "1.0-beta",
            "1234567890", " 1"})
    void notVersions(String text) {
        OjsException e = assertThrows(OjsException.class, () -> SchemaVersion.parse("version", text));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code());
        assertEquals("version", e.details().get("field"));
    }

    @Test
    void jsonValuesOtherThanWholeNumbersAndStringsAreRefused() {
        assertThrows(OjsException.class, () -> SchemaVersion.of("version", 0L));
        assertThrows(OjsException.class, () -> SchemaVersion.of("version", -3L));
        assertThrows(OjsException.class, () -> SchemaVersion.of("version", 1.5d));
        assertThrows(OjsException.class, () -> SchemaVersion.of("version", true));
        assertThrows(OjsException.class, () -> SchemaVersion.of("version", null));
    }

    @Test
    void aTypeMayCarryItsVersionAfterAnAt() {
        VersionedType t = VersionedType.split("invoice.generate@2.0");
        assertEquals("invoice.generate", t.type());
        assertEquals("2.0", t.version().text());
        assertNull(VersionedType.split("invoice.generate").version());
        // not a version after the @: the type stays whole (and is then refused as a type)
        assertEquals("email@send!", VersionedType.split("email@send!").type());
        assertNull(VersionedType.split("email@send!").version());
    }

    @Test
    void modesByName() {
        assertEquals(ValidationMode.STRICT, ValidationMode.parse("mode", "strict"));
        assertEquals("off", ValidationMode.OFF.wire());
        assertThrows(OjsException.class, () -> ValidationMode.parse("mode", "STRICT"));
        assertThrows(OjsException.class, () -> ValidationMode.parse("mode", null));
    }
}
