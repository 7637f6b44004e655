package dev.steadfast.domain.schema;

import dev.steadfast.domain.OjsException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The version of a job type's args schema, and of a job (ojs-job-versioning.md 5, ojs-schema-registry.md 6): a
 * whole number ({@code 1}, {@code 2}: the binding's and the conformance suite's form) or one to three dotted whole
 * numbers ({@code 2.0}, {@code 2.0.0}: the extension specs' forms). It keeps the text it was written with and is
 * answered in that form: a whole number as a JSON number, a dotted one as a string. Versions are ordered by major,
 * minor and patch (SemVer precedence without pre-release tags); missing parts count as 0, so {@code 2}, {@code 2.0}
 * and {@code 2.0.0} are the same version. No part has a leading zero or more than nine digits; {@code 0}
 * ({@code 0.0.0}) is not a version.
 */
public record SchemaVersion(String text, int major, int minor, int patch) implements Comparable<SchemaVersion> {

    private static final Pattern FORM = Pattern.compile("(0|[1-9][0-9]{0,8})(?:\\.(0|[1-9][0-9]{0,8}))?(?:\\.(0|[1-9][0-9]{0,8}))?");
    static final String EXPECTED = "a whole number >= 1 or dotted whole numbers such as 2.0 or 2.0.0";

    /** The version written as {@code text}; 400 invalid_request naming {@code field} when it is not one. */
    public static SchemaVersion parse(String field, String text) {
        Matcher m = text == null ? null : FORM.matcher(text);
        if (m == null || !m.matches()) {
            throw OjsException.invalidField(field, "'" + field + "' must be " + EXPECTED + ".", EXPECTED,
                    String.valueOf(text));
        }
        SchemaVersion v = new SchemaVersion(text, Integer.parseInt(m.group(1)), part(m.group(2)), part(m.group(3)));
        if (v.major == 0 && v.minor == 0 && v.patch == 0) {
            throw OjsException.invalidField(field, "'" + field + "' must not be 0.", EXPECTED, text);
        }
        return v;
    }

    /** A JSON value's version: a whole number, or a string {@link #parse} reads; 400 for anything else. */
    public static SchemaVersion of(String field, Object wire) {
        if (wire instanceof Long || wire instanceof Integer) {
            long n = ((Number) wire).longValue();
            if (n < 1 || n > 999_999_999) {
                throw OjsException.invalidField(field, "'" + field + "' must be " + EXPECTED + ".", EXPECTED,
                        Long.toString(n));
            }
            return parse(field, Long.toString(n));
        }
        if (wire instanceof String s) {
            return parse(field, s);
        }
        throw OjsException.invalidField(field, "'" + field + "' must be " + EXPECTED + ".", EXPECTED,
                String.valueOf(wire));
    }

    private static int part(String s) {
        return s == null ? 0 : Integer.parseInt(s);
    }

    /** True when written as a whole number: answered as a JSON number. */
    public boolean whole() {
        return text.indexOf('.') < 0;
    }

    /** The value to answer: an Integer for a whole number, else the dotted text. */
    public Object wire() {
        return whole() ? (Object) Integer.valueOf(major) : text;
    }

    /** Same version: equal major, minor and patch, however written. */
    public boolean sameAs(SchemaVersion o) {
        return compareTo(o) == 0;
    }

    @Override
    public int compareTo(SchemaVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c != 0 ? c : Integer.compare(patch, o.patch);
    }

    @Override
    public String toString() {
        return text;
    }
}
