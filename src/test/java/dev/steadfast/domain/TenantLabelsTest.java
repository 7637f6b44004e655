package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TenantLabelsTest {

    @Test
    void theFirstTenantsKeepTheirLabelAndTheRestShareOther() {
        TenantLabels labels = new TenantLabels(3);
        assertEquals("a", labels.of("a"));
        assertEquals("b", labels.of("b"));
        assertEquals(TenantLabels.DEFAULT, labels.of(null));
        assertEquals("c", labels.of("c"));
        assertEquals(TenantLabels.OTHER, labels.of("d"));
        assertEquals("a", labels.of("a"), "a tenant keeps its label");
        assertEquals(TenantLabels.OTHER, labels.of("d"), "and one past the limit stays other");
    }

    @Test
    void noMoreThanMaxPlusTwoValuesWhateverTheTenants() {
        TenantLabels labels = new TenantLabels(100);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            seen.add(labels.of(i % 7 == 0 ? null : "t" + i));
        }
        assertEquals(102, seen.size());
        assertEquals(TenantLabels.OTHER, new TenantLabels(0).of("x"), "0: every tenant is other");
    }
}
