package dev.steadfast.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The RESULT line's JSON is what scripts/bench-peers.sh and bench-peers-table.py parse: its form must not drift. */
class OutcomeTest {

    @Test
    void writesFiguresInOrderWithNullForMissingAndNonFiniteNumbers() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", "w2");
        m.put("jobs", 20000);
        m.put("elapsed_s", 5.234);
        m.put("windows_jobs_per_s", List.of(1214.5, 1100.0));
        m.put("last_over_first", null);
        m.put("client_cores", Double.NaN);
        m.put("ack", "per-job");
        m.put("timed_out", true);
        m.put("window_start_ms", 1795665661177L);
        assertEquals("{\"workload\":\"w2\",\"jobs\":20000,\"elapsed_s\":5.234,\"windows_jobs_per_s\":[1214.5,1100.0],"
                + "\"last_over_first\":null,\"client_cores\":null,\"ack\":\"per-job\",\"timed_out\":true,"
                + "\"window_start_ms\":1795665661177}", Outcome.json(m));
    }
}
