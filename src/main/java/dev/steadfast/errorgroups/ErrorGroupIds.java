package dev.steadfast.errorgroups;

import dev.steadfast.domain.OjsException;
import dev.steadfast.store.errorgroups.ErrorGroupRow;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * A group's id on the wire and in URLs: its 64-bit fingerprint as 16 lower-case hex digits (a JSON number would
 * lose digits in JavaScript), and the opaque cursor of the group list, (last_seen, id) in URL-safe base64.
 */
final class ErrorGroupIds {

    private ErrorGroupIds() {
    }

    public static String format(long id) {
        String hex = Long.toHexString(id);
        return "0".repeat(16 - hex.length()) + hex;
    }

    /** The fingerprint named by {@code id}; 404 for anything that is not 16 hex digits (no such group). */
    public static long parse(String id) {
        if (id == null || !id.matches("[0-9a-f]{16}")) {
            throw OjsException.notFound("error_group", id == null ? "" : id);
        }
        return Long.parseUnsignedLong(id, 16);
    }

    record Cursor(Instant lastSeen, long id) {
    }

    static String encodeCursor(ErrorGroupRow last) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((last.lastSeen() + "|" + format(last.id()))
                .getBytes(StandardCharsets.UTF_8));
    }

    static Optional<Cursor> decodeCursor(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return Optional.empty();
        }
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|");
            if (parts.length == 2 && parts[1].matches("[0-9a-f]{16}")) {
                return Optional.of(new Cursor(Instant.parse(parts[0]), Long.parseUnsignedLong(parts[1], 16)));
            }
        } catch (IllegalArgumentException | DateTimeException e) {
            // refused below
        }
        throw OjsException.invalidField("cursor", "The cursor is not one this server handed out.");
    }
}
