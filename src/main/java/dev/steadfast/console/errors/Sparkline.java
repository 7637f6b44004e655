package dev.steadfast.console.errors;

import dev.steadfast.console.Format;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A group's failures per hour as inline SVG geometry, computed here so the template only places rectangles: one
 * bar per UTC hour, oldest first, scaled to the group's busiest hour (an hour without failures draws no bar).
 */
public record Sparkline(int width, int height, List<Bar> bars, String summary) {

    static final int BAR = 4;
    static final int GAP = 1;
    static final int HEIGHT = 24;

    /** One hour's bar and its tooltip. */
    public record Bar(int x, int y, int width, int height, String title) {
    }

    static Sparkline of(Instant from, List<Long> hourly) {
        long max = 1, total = 0;
        for (long n : hourly) {
            max = Math.max(max, n);
            total += n;
        }
        List<Bar> bars = new ArrayList<>(hourly.size());
        for (int i = 0; i < hourly.size(); i++) {
            long n = hourly.get(i);
            int h = n == 0 ? 0 : (int) Math.max(1, Math.round((double) n * HEIGHT / max));
            bars.add(new Bar(i * (BAR + GAP), HEIGHT - h, BAR, h,
                    Format.minute(from.plus(Duration.ofHours(i))) + " UTC: " + Format.count(n) + " failed"));
        }
        return new Sparkline(hourly.size() * (BAR + GAP) - GAP, HEIGHT, bars,
                Format.count(total) + " failed attempts in the last " + hourly.size() + " hours");
    }
}
