package dev.steadfast.domain;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;

/**
 * A keyset position in a list ordered by a time and an id (newest or oldest first): the (time, id) of the last row
 * of the page it continues, handed to clients as an opaque base64url string. A string this server did not issue is
 * a 400 naming the request's field.
 */
public record KeysetCursor(Instant at, UUID id) {

    /** The opaque form, for {@code next_cursor}. */
    public String encode() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((at + "|" + id).getBytes(StandardCharsets.UTF_8));
    }

    /** The position of a cursor this server issued; null for a null or blank one (the first page). */
    public static KeysetCursor decode(String field, String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return null;
        }
        try {
            String[] p = new String(Base64.getUrlDecoder().decode(cursor.trim()), StandardCharsets.UTF_8).split("\\|");
            if (p.length == 2) {
                return new KeysetCursor(Instant.parse(p[0]), UUID.fromString(p[1]));
            }
        } catch (RuntimeException e) {
            // not one of ours: below
        }
        throw OjsException.invalidField(field, "'" + field + "' is not a cursor this server issued; pass the"
                + " 'next_cursor' of a previous page.", "a next_cursor", cursor);
    }
}
