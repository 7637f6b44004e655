package dev.steadfast.domain.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Error history trimming and backtrace truncation. */
class ErrorHistoryTest {

    private static final Instant T0 = Instant.parse("2026-02-12T10:31:05Z");

    static ErrorEntry entry(int attempt) {
        return new ErrorEntry(1, attempt, "external.api_timeout", "RETRY", "timed out", T0.plusSeconds(attempt), null, null);
    }

    private static List<ErrorEntry> history(int size) {
        List<ErrorEntry> h = List.of();
        for (int i = 1; i <= size; i++) {
            h = ErrorHistory.append(h, entry(i), 1_000);
        }
        return h;
    }

    private static List<Integer> attempts(List<ErrorEntry> h) {
        return h.stream().map(ErrorEntry::attempt).collect(Collectors.toList());
    }

    @Test
    void appendKeepsTheMostRecentEntries() {
        List<ErrorEntry> h = ErrorHistory.append(history(30), entry(31), 20);
        assertEquals(IntStream.rangeClosed(12, 31).boxed().collect(Collectors.toList()), attempts(h));
    }

    @Test
    void keepBelowTenIsRaisedToTen() {
        for (int keep : new int[] {Integer.MIN_VALUE, -1, 0, 1, 9}) {
            List<ErrorEntry> h = ErrorHistory.append(history(15), entry(16), keep);
            assertEquals(IntStream.rangeClosed(7, 16).boxed().collect(Collectors.toList()), attempts(h), "keep=" + keep);
        }
    }

    @Test
    void appendDoesNotMutateAndReturnsAnUnmodifiableList() {
        List<ErrorEntry> original = new ArrayList<>(history(3));
        List<ErrorEntry> result = ErrorHistory.append(original, entry(4));
        assertEquals(3, original.size());
        assertEquals(List.of(1, 2, 3, 4), attempts(result));
        assertThrows(UnsupportedOperationException.class, () -> result.add(entry(5)));
        assertEquals(List.of(1), attempts(ErrorHistory.append(null, entry(1))));
    }

    @Test
    void defaultKeepIsFifty() {
        assertEquals(50, ErrorHistory.append(history(60), entry(61)).size());
    }

    @Test
    void entriesOfEarlierRunsStayReadable() {
        List<ErrorEntry> h = ErrorHistory.append(history(3),
                new ErrorEntry(2, 1, "x.y", null, "after re-enqueue", T0.plusSeconds(99), null, null));
        assertEquals(List.of(1, 1, 1, 2), h.stream().map(ErrorEntry::run).collect(Collectors.toList()));
    }

    @Test
    void entryCopiesDetailsAndBacktraceDefensively() {
        Map<String, Object> details = new HashMap<>();
        details.put("endpoint", "https://api.example.com");
        details.put("nullable", null);
        List<String> frames = new ArrayList<>(List.of("a", "b"));
        ErrorEntry e = new ErrorEntry(1, 2, "t.x", "RETRY", "m", T0, details, frames);
        details.put("later", 1);
        frames.add("c");
        assertEquals(2, e.details().size());
        assertEquals(List.of("a", "b"), e.backtrace());
        assertThrows(UnsupportedOperationException.class, () -> e.details().put("x", 1));
        assertThrows(IllegalArgumentException.class, () -> new ErrorEntry(0, 1, "t", null, "m", T0, null, null));
        assertThrows(IllegalArgumentException.class, () -> new ErrorEntry(1, 0, "t", null, "m", T0, null, null));
    }

    @Test
    void truncateByFrameCount() {
        List<String> frames = IntStream.range(0, 87).mapToObj(i -> "frame" + i).collect(Collectors.toList());
        List<String> cut = ErrorEntry.truncateBacktrace(frames);
        assertEquals(ErrorEntry.MAX_BACKTRACE_FRAMES + 1, cut.size());
        assertEquals("frame49", cut.get(49));
        assertEquals("... 37 more frames truncated", cut.get(50));
    }

    @Test
    void truncateByCharacters() {
        List<String> frames = List.of("aaaa", "bbbb", "cccc", "dddd");
        assertEquals(List.of("aaaa", "bbbb", "... 2 more frames truncated"), ErrorEntry.truncateBacktrace(frames, 10, 9));
        assertEquals(List.of("aaaa", "bbbb", "cccc", "... 1 more frame truncated"), ErrorEntry.truncateBacktrace(frames, 10, 12));
        assertEquals(List.of("... 1 more frame truncated"), ErrorEntry.truncateBacktrace(List.of("x".repeat(20_000))));
    }

    @Test
    void truncateLeavesShortBacktracesAlone() {
        assertEquals(List.of("a", "b"), ErrorEntry.truncateBacktrace(List.of("a", "b")));
        assertEquals(List.of(), ErrorEntry.truncateBacktrace(List.of()));
        assertNull(ErrorEntry.truncateBacktrace(null));
        assertEquals(List.of("a", ""), ErrorEntry.truncateBacktrace(Arrays.asList("a", null)));
        List<String> once = ErrorEntry.truncateBacktrace(List.of("a", "b", "c"), 2, 100);
        assertEquals(List.of("a", "b", "... 1 more frame truncated"), once);
    }

    @Test
    void truncateRejectsNegativeLimits() {
        assertThrows(IllegalArgumentException.class, () -> ErrorEntry.truncateBacktrace(List.of(), -1, 10));
        assertThrows(IllegalArgumentException.class, () -> ErrorEntry.truncateBacktrace(List.of(), 1, -1));
    }
}
