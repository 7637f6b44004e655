package dev.steadfast.http;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Wire timestamps: RFC 3339 in UTC with milliseconds, e.g. {@code 2026-02-12T10:30:00.123Z}. */
public final class Timestamps {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    /**
     * The same text {@link #FORMAT} writes. Years 1-9999 are written directly: every fetched job carries several
     * timestamps, and the formatter's general machinery was about 3% of a FETCH/ACK request's CPU and 9% of what
     * it allocated (docs/performance/README.md). Other years go through the formatter.
     */
    public static String format(Instant i) {
        if (i == null) {
            return null;
        }
        LocalDateTime t = LocalDateTime.ofEpochSecond(i.getEpochSecond(), i.getNano(), ZoneOffset.UTC);
        int year = t.getYear();
        if (year < 1 || year > 9999) { // "yyyy" is the year of the era: year 0 is 1 BC
            return FORMAT.format(i);
        }
        char[] c = new char[24];
        digits(c, 0, year, 4);
        c[4] = '-';
        digits(c, 5, t.getMonthValue(), 2);
        c[7] = '-';
        digits(c, 8, t.getDayOfMonth(), 2);
        c[10] = 'T';
        digits(c, 11, t.getHour(), 2);
        c[13] = ':';
        digits(c, 14, t.getMinute(), 2);
        c[16] = ':';
        digits(c, 17, t.getSecond(), 2);
        c[19] = '.';
        digits(c, 20, i.getNano() / 1_000_000, 3);
        c[23] = 'Z';
        return new String(c);
    }

    private static void digits(char[] c, int at, int value, int width) {
        for (int k = at + width - 1; k >= at; k--) {
            c[k] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
