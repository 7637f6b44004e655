package dev.steadfast.console;

import dev.steadfast.store.maintenance.StatsStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The overview's bar chart as inline SVG geometry, computed here so the template only places rectangles: one bar
 * per minute, completed jobs stacked on jobs that failed for good, scaled to the busiest minute.
 */
record ThroughputChart(int width, int height, List<Bar> bars, String max, String from, String to,
                              String summary) {

    static final int BAR = 10;
    static final int GAP = 2;
    static final int HEIGHT = 120;

    /** One minute's bar: the completed part on top of the failed part, and its tooltip. */
    public record Bar(int x, int width, int okY, int okH, int failY, int failH, String title) {
    }

    static ThroughputChart of(List<StatsStore.Minute> minutes) {
        long max = 1;
        for (StatsStore.Minute m : minutes) {
            max = Math.max(max, m.completed() + m.failed());
        }
        List<Bar> bars = new ArrayList<>(minutes.size());
        long completed = 0, failed = 0;
        for (int i = 0; i < minutes.size(); i++) {
            StatsStore.Minute m = minutes.get(i);
            completed += m.completed();
            failed += m.failed();
            int failH = scale(m.failed(), max);
            int okH = scale(m.completed(), max);
            int failY = HEIGHT - failH;
            String at = Format.minute(Instant.ofEpochSecond(m.epochMinute() * 60));
            bars.add(new Bar(i * (BAR + GAP), BAR, failY - okH, okH, failY, failH,
                    at + " UTC: " + m.completed() + " completed, " + m.failed() + " failed"));
        }
        String from = minutes.isEmpty() ? "" : Format.minute(Instant.ofEpochSecond(minutes.get(0).epochMinute() * 60));
        String to = minutes.isEmpty() ? "" : Format.minute(Instant.ofEpochSecond(
                minutes.get(minutes.size() - 1).epochMinute() * 60));
        String summary = "Finished jobs per minute, " + from + " to " + to + " UTC: " + Format.count(completed)
                + " completed, " + Format.count(failed) + " failed for good.";
        return new ThroughputChart(minutes.size() * (BAR + GAP), HEIGHT, bars, Format.count(max), from, to, summary);
    }

    /** Height in pixels; any non-zero count gets at least one pixel so it stays visible. */
    private static int scale(long n, long max) {
        return n == 0 ? 0 : (int) Math.max(1, Math.round((double) n * HEIGHT / max));
    }
}
