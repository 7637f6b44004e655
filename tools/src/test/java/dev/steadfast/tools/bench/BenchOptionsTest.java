package dev.steadfast.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    private static BenchOptions parse(String... args) {
        return BenchOptions.parse(args);
    }

    @Test
    void theClientWarmUpRunsTheSameShapeWithoutTheTimedRunsHooks() {
        BenchOptions o = parse("--workload", "w2,w3", "--client-warmup", "on", "--fetch-count", "100",
                "--pg-stats", "psql -c x", "--pg-stats-settle-ms", "11000", "--before-timing", "vacuum");
        BenchOptions w2 = o.forClientWarmup("w2");
        assertEquals(20_000, w2.pick("--jobs", w2.jobs, 20_000), "the workload's own job count");
        assertEquals(100, w2.pick("--fetch-count", w2.fetchCount, 10));
        assertNull(w2.pgStats);
        assertEquals(0, w2.pgSettleMs);
        assertNull(w2.beforeTiming);
        assertFalse(w2.clientWarmup);
        BenchOptions w3 = o.forClientWarmup("w3");
        assertEquals(200, w3.pick("--jobs", w3.jobs, 2000), "W3 at most 200 jobs");
        // the timed run's options are untouched
        assertEquals("psql -c x", o.pgStats);
        assertEquals(11_000, o.pgSettleMs);
        assertEquals("vacuum", o.beforeTiming);
        assertTrue(o.clientWarmup);
        assertFalse(o.given.contains("--jobs"));
    }

    @Test
    void theClientWarmUpKeepsAGivenJobCountAndTakesOnOrOff() {
        assertEquals(3000, parse("--workload", "w4", "--jobs", "3000").forClientWarmup("w4").jobs);
        assertEquals(150, parse("--workload", "w3", "--jobs", "150").forClientWarmup("w3").jobs);
        assertFalse(parse("--workload", "w2").clientWarmup);
        assertThrows(IllegalArgumentException.class, () -> parse("--workload", "w2", "--client-warmup", "yes"));
    }

    @Test
    void aQueueLeavesRoomForTheLongestSuffix() {
        String q = "q".repeat(101);
        assertThrows(IllegalArgumentException.class, () -> parse("--workload", "w2", "--queue", q));
        String ok = "q".repeat(100);
        assertTrue((ok + "-stream-check-warmup").length() <= 128);
        assertEquals(ok, parse("--workload", "stream-check", "--queue", ok).queue);
    }
}
