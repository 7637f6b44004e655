package dev.steadfast.domain.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which registered schema a job's args are checked against, and in which mode. */
class SchemaCatalogTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static SchemaCatalog.Entry e(String uri, String type, String version, int second) {
        return new SchemaCatalog.Entry(uri, type, SchemaVersion.parse("version", version), T0.plusSeconds(second));
    }

    final SchemaCatalog catalog = new SchemaCatalog(List.of(
            e("u:mail:1", "mail", "1", 0),
            e("u:mail:2.10", "mail", "2.10", 1),
            e("u:mail:2.9", "mail", "2.9", 2),
            e("u:report:1", "report", "1", 3),
            e("u:report:1-again", "report", "1.0", 4), // registered by URI before versions were unique
            e("u:quiet:1", "quiet", "1", 5)),
            Map.of("quiet", ValidationMode.OFF, "report", ValidationMode.STRICT), ValidationMode.WARN);

    @Test
    void anUnversionedJobIsCheckedAgainstTheHighestVersion() {
        SchemaCatalog.Target t = catalog.target("mail", null, null);
        assertEquals("u:mail:2.10", t.schema().uri());
        assertEquals(ValidationMode.WARN, t.mode());
        assertFalse(t.none());
    }

    @Test
    void aVersionedJobIsCheckedAgainstItsVersionHoweverWritten() {
        assertEquals("u:mail:2.9", catalog.target("mail", SchemaVersion.parse("v", "2.9.0"), null).schema().uri());
        assertEquals("u:mail:1", catalog.target("mail", SchemaVersion.parse("v", "1.0"), null).schema().uri());
    }

    @Test
    void aVersionWithoutASchemaIsNotChecked() {
        SchemaCatalog.Target t = catalog.target("mail", SchemaVersion.parse("v", "3"), null);
        assertNull(t.schema());
        assertTrue(t.none());
    }

    @Test
    void aTypeWithoutSchemasIsNotChecked() {
        assertTrue(catalog.target("other", null, null).none());
    }

    @Test
    void ofEqualVersionsTheFirstRegisteredApplies() {
        SchemaCatalog.Target t = catalog.target("report", null, null);
        assertEquals("u:report:1", t.schema().uri());
        assertEquals(ValidationMode.STRICT, t.mode());
    }

    @Test
    void aNamedUriWinsAndAnUnknownOneIsReported() {
        assertEquals("u:mail:1", catalog.target("mail", SchemaVersion.parse("v", "2.9"), "u:mail:1").schema().uri());
        SchemaCatalog.Target missing = catalog.target("mail", null, "u:nothing");
        assertNull(missing.schema());
        assertEquals("u:nothing", missing.missingUri());
        assertFalse(missing.none());
    }

    @Test
    void offChecksNothingNotEvenANamedUri() {
        assertTrue(catalog.target("quiet", null, null).none());
        assertTrue(catalog.target("quiet", null, "u:nothing").none());
        assertTrue(catalog.hasOwnMode("quiet"));
        assertEquals(ValidationMode.WARN, catalog.mode("mail"));
    }

    @Test
    void anEmptyRegistryChecksNothing() {
        SchemaCatalog empty = new SchemaCatalog(List.of(), Map.of(), ValidationMode.STRICT);
        assertTrue(empty.isEmpty());
        assertTrue(empty.target("mail", null, null).none());
    }
}
