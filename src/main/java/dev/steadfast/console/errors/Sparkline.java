package dev.steadfast.console.errors;

import dev.steadfast.console.Format;
import java.util.List;

/**
 * A group's failures per hour as inline SVG geometry, computed here so the template writes one path: one bar per
 * UTC hour, oldest first, scaled to the group's busiest hour (an hour without failures draws no bar). One path per
 * group rather than one element per hour: at 50 groups a page of rectangles with their tooltips was four times the
 * HTML (132 KiB) and most of the page's time.
 */
public record Sparkline(int width, int height, String path, String summary, String tone) {

    static final int BAR = 4;
    static final int GAP = 1;
    static final int HEIGHT = 24;

    static Sparkline of(List<Long> hourly) {
        long total = hourly.stream().mapToLong(Long::longValue).sum();
        long peak = hourly.stream().mapToLong(Long::longValue).max().orElse(0);
        return bars(hourly, Format.count(total) + " failed attempts in the last " + hourly.size() + " hours, at most "
                + Format.count(peak) + " in one hour");
    }

    /**
     * Bars for any series (the queues page's per-minute throughput and latency use it too), oldest first, scaled
     * to its largest value, with {@code summary} as the accessible title.
     */
    public static Sparkline bars(List<Long> values, String summary) {
        return bars(values, summary, "");
    }

    /** As {@link #bars(List, String)}, with a CSS class for the series' colour. */
    public static Sparkline bars(List<Long> hourly, String summary, String tone) {
        long max = 1;
        for (long n : hourly) {
            max = Math.max(max, n);
        }
        StringBuilder d = new StringBuilder();
        for (int i = 0; i < hourly.size(); i++) {
            long n = hourly.get(i);
            if (n > 0) {
                int h = (int) Math.max(1, Math.round((double) n * HEIGHT / max));
                d.append('M').append(i * (BAR + GAP)).append(' ').append(HEIGHT).append('v').append(-h)
                        .append('h').append(BAR).append('v').append(h).append('z');
            }
        }
        return new Sparkline(Math.max(1, hourly.size() * (BAR + GAP) - GAP), HEIGHT, d.toString(), summary, tone);
    }
}
