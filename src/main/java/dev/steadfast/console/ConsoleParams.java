package dev.steadfast.console;

import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.UUID;

/**
 * Reads the console's query and form parameters; a bad value is a 400 that names the parameter (shown as the
 * console's error page), never a 500 and never silently ignored.
 */
public final class ConsoleParams {

    private ConsoleParams() {
    }

    /** Trimmed, or null when empty. */
    public static String text(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    public static JobState state(String s) {
        String v = text(s);
        if (v == null) {
            return null;
        }
        return JobState.fromWire(v).orElseThrow(() -> OjsException.invalidField("state", "Unknown state '" + v
                + "'; one of " + Arrays.stream(JobState.values()).map(JobState::wire).toList() + ".", "a job state", v));
    }

    public static String queue(String s) {
        String v = text(s);
        return v == null ? null : JobRules.checkQueue(v);
    }

    /** A datetime-local value (taken as UTC) or an RFC 3339 timestamp. */
    public static Instant time(String field, String s) {
        String v = text(s);
        if (v == null) {
            return null;
        }
        try {
            return v.endsWith("Z") || v.matches(".*[+-]\\d\\d:\\d\\d$") ? OffsetDateTime.parse(v).toInstant()
                    : LocalDateTime.parse(v).toInstant(ZoneOffset.UTC);
        } catch (DateTimeException e) {
            throw OjsException.invalidField(field, "'" + field + "' must be a date and time like 2026-11-21T14:30 (UTC).",
                    "yyyy-MM-ddTHH:mm", v);
        }
    }

    /** A job id in a path; anything else names no job, so it is simply not found. */
    public static UUID jobId(String s) {
        try {
            if (s != null && s.length() == 36) {
                return UUID.fromString(s);
            }
        } catch (IllegalArgumentException e) {
            // fall through
        }
        throw OjsException.notFound("job", s == null ? "" : s);
    }

    /** A UUID typed into a search box, or null when the text is not one. */
    public static UUID maybeId(String s) {
        String v = text(s);
        if (v == null || v.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(v);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The explicit confirmation every destructive console form must carry. */
    public static boolean confirmed(String confirm) {
        return "yes".equals(confirm);
    }
}
