package dev.steadfast.domain.schema;

import dev.steadfast.domain.OjsException;
import java.util.Locale;

/**
 * What a PUSH whose args do not match their type's registered schema gets (ojs-schema-registry.md 7.2):
 * {@code strict} refuses the job (400 {@code schema_validation}), {@code warn} creates it and answers the
 * violations as {@code warnings}, {@code off} does not validate (the schema is documentation).
 */
public enum ValidationMode {
    STRICT, WARN, OFF;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode named {@code s}; 400 invalid_request naming {@code field} otherwise. */
    public static ValidationMode parse(String field, String s) {
        for (ValidationMode m : values()) {
            if (m.wire().equals(s)) {
                return m;
            }
        }
        throw OjsException.invalidField(field, "'" + field + "' must be strict, warn or off.", "strict|warn|off",
                String.valueOf(s));
    }
}
