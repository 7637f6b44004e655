package dev.steadfast.console;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How the console writes times, durations and counts: UTC, short, and the same on every page. */
public final class Format {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter INPUT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm").withZone(ZoneOffset.UTC);

    private Format() {
    }

    /** {@code 2026-11-21 22:45:01} (UTC), or an empty string for null. */
    public static String time(Instant i) {
        return i == null ? "" : TIME.format(i);
    }

    /** {@code 22:45} (UTC). */
    public static String minute(Instant i) {
        return MINUTE.format(i);
    }

    /** The value of a datetime-local input, {@code 2026-11-21T22:45} (UTC), or empty. */
    public static String input(Instant i) {
        return i == null ? "" : INPUT.format(i);
    }

    /** RFC 3339 for a {@code <time datetime>} attribute. */
    public static String iso(Instant i) {
        return i == null ? "" : i.toString();
    }

    /** {@code 1,234,567}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** {@code 12.5%}. */
    public static String percent(double ratio) {
        return String.format(Locale.ROOT, "%.1f%%", ratio * 100);
    }

    /** A short human duration: {@code 250ms}, {@code 1.5s}, {@code 2m 30s}, {@code 1h 5m}, {@code 3d 4h}. */
    public static String duration(Duration d) {
        if (d == null) {
            return "";
        }
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms < 60_000) {
            return ms % 1000 == 0 ? ms / 1000 + "s" : String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
        }
        long s = d.getSeconds();
        if (s < 3600) {
            return s / 60 + "m" + (s % 60 == 0 ? "" : " " + s % 60 + "s");
        }
        if (s < 86_400) {
            return s / 3600 + "h" + (s % 3600 / 60 == 0 ? "" : " " + s % 3600 / 60 + "m");
        }
        return s / 86_400 + "d" + (s % 86_400 / 3600 == 0 ? "" : " " + s % 86_400 / 3600 + "h");
    }

    /** {@code 5m 3s ago} or {@code in 2m}, relative to {@code now}. */
    public static String relative(Instant i, Instant now) {
        if (i == null) {
            return "";
        }
        Duration d = Duration.between(i, now);
        return d.isNegative() ? "in " + duration(d.negated()) : duration(d) + " ago";
    }
}
