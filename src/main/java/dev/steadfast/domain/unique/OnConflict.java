package dev.steadfast.domain.unique;

import java.util.Locale;
import java.util.Optional;

/**
 * What a PUSH does when a job with the same uniqueness key already holds it (ojs-unique-jobs.md section 5).
 * {@code use_existing} (the OpenAPI document's name) is read as {@link #IGNORE}.
 */
public enum OnConflict {
    REJECT, REPLACE, REPLACE_EXCEPT_SCHEDULE, IGNORE;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<OnConflict> fromWire(String s) {
        if ("use_existing".equals(s)) {
            return Optional.of(IGNORE);
        }
        for (OnConflict c : values()) {
            if (c.wire().equals(s)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
