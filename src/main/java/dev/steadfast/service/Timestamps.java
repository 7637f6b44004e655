package dev.steadfast.service;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Wire timestamps: RFC 3339 in UTC with milliseconds, e.g. {@code 2026-02-12T10:30:00.123Z}. */
public final class Timestamps {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Timestamps() {
    }

    public static String format(Instant i) {
        return i == null ? null : FORMAT.format(i);
    }
}
