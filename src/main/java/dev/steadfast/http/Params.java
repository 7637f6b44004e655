package dev.steadfast.http;

import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** Request values that are not JSON: query parameters and ids, refused with a 400 naming them when malformed. */
public final class Params {

    private Params() {
    }

    /** An integer query parameter within [min, max]; {@code dflt} when absent. */
    public static int integer(String name, String value, int dflt, int min, int max) {
        if (value == null || value.isBlank()) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw OjsException.invalidField(name, "'" + name + "' must be an integer from " + min + " to " + max + ".",
                "integer in [" + min + ", " + max + "]", value);
    }

    /** A required RFC 3339 timestamp query parameter (e.g. 2026-11-01T00:00:00Z). */
    public static Instant requiredTimestamp(String name, String value) {
        if (value == null || value.isBlank()) {
            throw OjsException.invalidField(name, "'" + name + "' is required: an RFC 3339 timestamp.", "RFC 3339",
                    String.valueOf(value));
        }
        try {
            return OffsetDateTime.parse(value.trim()).toInstant();
        } catch (DateTimeException e) {
            throw OjsException.invalidField(name, "'" + name + "' must be an RFC 3339 timestamp.", "RFC 3339", value);
        }
    }

    /** An optional queue name query parameter; null when absent. */
    public static String queue(String name, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!JobRules.isQueue(value)) {
            throw OjsException.invalidField(name, "'" + name + "' must be a queue name (" + JobRules.QUEUE.pattern()
                    + ").", JobRules.QUEUE.pattern(), value);
        }
        return value;
    }

    /** A UUID in its canonical 36-character form. */
    public static Optional<UUID> uuid(String s) {
        try {
            return s != null && s.length() == 36 ? Optional.of(UUID.fromString(s)) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** A job id from a path: anything that is not a UUID cannot name a job, so it is simply not found. */
    public static UUID jobId(String id) {
        return uuid(id).orElseThrow(() -> OjsException.notFound("job", id));
    }

    /** A comma-separated query parameter as a set; empty when absent. */
    public static Set<String> csv(String s) {
        if (s == null || s.isBlank()) {
            return Set.of();
        }
        return Set.of(s.split("\\s*,\\s*"));
    }
}
