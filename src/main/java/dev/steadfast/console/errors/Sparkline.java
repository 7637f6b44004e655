package dev.steadfast.console.errors;

import dev.steadfast.console.Format;
import java.util.List;

/**
 * A group's failures per hour as inline SVG geometry, computed here so the template writes one path: one bar per
 * UTC hour, oldest first, scaled to the group's busiest hour (an hour without failures draws no bar). One path per
 * group rather than one element per hour: at 50 groups a page of rectangles with their tooltips was four times the
 * HTML (132 KiB) and most of the page's time.
 */
public record Sparkline(int width, int height, String path, String summary) {

    static final int BAR = 4;
    static final int GAP = 1;
    static final int HEIGHT = 24;

    static Sparkline of(List<Long> hourly) {
        long max = 1, total = 0, peak = 0;
        for (long n : hourly) {
            max = Math.max(max, n);
            total += n;
        }
        StringBuilder d = new StringBuilder();
        for (int i = 0; i < hourly.size(); i++) {
            long n = hourly.get(i);
            if (n > 0) {
                int h = (int) Math.max(1, Math.round((double) n * HEIGHT / max));
                d.append('M').append(i * (BAR + GAP)).append(' ').append(HEIGHT).append('v').append(-h)
                        .append('h').append(BAR).append('v').append(h).append('z');
                peak = Math.max(peak, n);
            }
        }
        return new Sparkline(hourly.size() * (BAR + GAP) - GAP, HEIGHT, d.toString(), Format.count(total)
                + " failed attempts in the last " + hourly.size() + " hours, at most " + Format.count(peak)
                + " in one hour");
    }
}
