package dev.steadfast.domain.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The tenant concurrency rule, without a database. */
class TenantConcurrencyTest {

    @Test
    void theAllowanceIsWhatTheLimitLeavesUpToWhatTheFetchWants() {
        assertEquals(3, TenantConcurrency.allowance(3, 0, 10));
        assertEquals(2, TenantConcurrency.allowance(3, 0, 2));
        assertEquals(1, TenantConcurrency.allowance(3, 2, 10));
        assertEquals(0, TenantConcurrency.allowance(3, 3, 10));
        assertEquals(0, TenantConcurrency.allowance(3, 5, 10), "a lowered limit starts nothing until below it");
        assertEquals(0, TenantConcurrency.allowance(3, 0, 0));
        assertEquals(1000, TenantConcurrency.allowance(Integer.MAX_VALUE, 0, 1000));
    }

    @Test
    void atLimitCountsTheActiveJobs() {
        assertFalse(TenantConcurrency.atLimit(1, 0));
        assertTrue(TenantConcurrency.atLimit(1, 1));
        assertTrue(TenantConcurrency.atLimit(2, 7));
    }

    @Test
    void aLimitIsAPositiveIntegerOrNone() {
        assertTrue(TenantConcurrency.valid(null));
        assertTrue(TenantConcurrency.valid(1L));
        assertTrue(TenantConcurrency.valid((long) Integer.MAX_VALUE));
        assertFalse(TenantConcurrency.valid(0L));
        assertFalse(TenantConcurrency.valid(-1L));
        assertFalse(TenantConcurrency.valid(Integer.MAX_VALUE + 1L));
    }
}
