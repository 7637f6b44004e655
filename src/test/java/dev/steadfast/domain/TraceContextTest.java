package dev.steadfast.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class TraceContextTest {

    static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aVersion00TraceparentGivesItsTraceAndSpanIds() {
        TraceContext t = TraceContext.parse(PARENT, "ojs=p:8;r:62");
        assertNotNull(t);
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", t.traceId());
        assertEquals("00f067aa0ba902b7", t.spanId());
        assertEquals(PARENT, t.traceparent());
        assertEquals("ojs=p:8;r:62", t.tracestate());
        assertEquals(PARENT, TraceContext.parse(" " + PARENT + " ", null).traceparent(), "surrounding spaces");
    }

    @Test
    void malformedTraceparentsAreIgnored() {
        for (String bad : new String[] {null, "", "garbage", PARENT.toUpperCase(), PARENT + "-extra",
            PARENT.substring(0, 54), "ff" + PARENT.substring(2), "0x" + PARENT.substring(2),
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g"}) {
            assertNull(TraceContext.parse(bad, "a=b"), String.valueOf(bad));
        }
    }

    @Test
    void aLaterVersionIsReadByItsFirstFourFields() {
        String v1 = "01" + PARENT.substring(2);
        assertNotNull(TraceContext.parse(v1, null));
        assertNotNull(TraceContext.parse(v1 + "-more", null));
        assertNull(TraceContext.parse(v1 + "more", null), "a later field must be separated by '-'");
    }

    @Test
    void anInvalidTracestateIsDroppedAndTheTraceparentKept() {
        assertNull(TraceContext.parse(PARENT, "novalue").tracestate());
        assertNull(TraceContext.parse(PARENT, "=x").tracestate());
        assertNull(TraceContext.parse(PARENT, "a=\u00e9").tracestate());
        assertNull(TraceContext.parse(PARENT, "").tracestate());
        assertNull(TraceContext.parse(PARENT, "a=" + "x".repeat(511)).tracestate(), "over 512 characters");
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 33; i++) {
            many.append(i == 0 ? "" : ",").append("k").append(i).append("=v");
        }
        assertNull(TraceContext.parse(PARENT, many.toString()).tracestate(), "33 members");
        assertEquals("a=1, b=2,", TraceContext.parse(PARENT, "a=1, b=2,").tracestate(), "empty members allowed");
        assertEquals(PARENT, TraceContext.parse(PARENT, "novalue").traceparent());
    }
}
