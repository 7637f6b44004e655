package dev.steadfast.domain;

import java.util.Locale;

/**
 * The rule for free-form names a client chooses (a worker's id, a workflow name filter): any printable Unicode
 * (letters of any script, digits, punctuation, spaces, dots, colons, slashes) but no control character, so such a
 * name can carry no NUL into PostgreSQL and no line break, escape sequence or bell into a log line, the console or
 * an event. Identifiers with a fixed form (job types, queue names, tenant ids) have their own, stricter patterns,
 * which admit no control character either.
 */
public final class PrintableText {

    private PrintableText() {
    }

    /**
     * Whether {@code codePoint} is a control character: C0 (U+0000-U+001F), DEL (U+007F) or C1 (U+0080-U+009F),
     * exactly what {@link Character#isISOControl(int)} names.
     */
    public static boolean isControl(int codePoint) {
        return Character.isISOControl(codePoint);
    }

    /** The index of the first control character in {@code s}, or -1 when there is none. */
    public static int firstControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (isControl(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code value} when it is 1 to {@code maxLength} characters without a control character; otherwise 400
     * invalid_request naming {@code field}. The refusal describes what was wrong (its length, or which control
     * character where) rather than echoing the value.
     */
    public static String check(String field, String value, int maxLength) {
        int control = value == null ? -1 : firstControl(value);
        if (value != null && !value.isEmpty() && value.length() <= maxLength && control < 0) {
            return value;
        }
        String received = value == null ? "null" : value.isEmpty() ? "an empty string"
                : value.length() > maxLength ? value.length() + " characters"
                : String.format(Locale.ROOT, "a control character (U+%04X) at index %d", (int) value.charAt(control), control);
        throw OjsException.invalidField(field, "'" + field + "' must be 1 to " + maxLength
                + " characters without control characters (U+0000-U+001F, U+007F-U+009F).",
                "1.." + maxLength + " printable characters", received);
    }
}
