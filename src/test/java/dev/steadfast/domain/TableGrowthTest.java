package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TableGrowthTest {

    @Test
    void aBurstIntoAnEmptyOrNeverAnalyzedTableIsAnalyzedOnceItIsLarge() {
        assertFalse(TableGrowth.analyzeNow(0, 9_999));
        assertTrue(TableGrowth.analyzeNow(0, 10_000));
        assertTrue(TableGrowth.analyzeNow(-1, 10_000), "never analyzed counts as empty");
        assertTrue(TableGrowth.analyzeNow(500, 100_000));
    }

    @Test
    void aTableAnalyzedLargeWaitsForTenTimesItsCount() {
        assertFalse(TableGrowth.analyzeNow(2_000, 19_999));
        assertTrue(TableGrowth.analyzeNow(2_000, 20_000));
        assertFalse(TableGrowth.analyzeNow(100_000, 999_999));
        assertFalse(TableGrowth.analyzeNow(100_000, 50_000), "shrinking never asks for it");
    }
}
