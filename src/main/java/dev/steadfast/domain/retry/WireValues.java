package dev.steadfast.domain.retry;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Typed readers for JSON values as a JSON library hands them over (String, Boolean, Number of
 * any boxed or big type, List). Each reader either returns a value of the expected type or
 * throws a {@link PolicyViolation} that names the field, so a wrong JSON type can never leak out
 * as a ClassCastException.
 *
 * <p>Numbers are compared as {@link BigDecimal}s, so when the JSON library keeps big decimals
 * (Jackson's USE_BIG_DECIMAL_FOR_FLOATS) {@code 0.99999999999999999999} stays below 1.0 instead of
 * rounding to it. Doubles are taken at their shortest decimal form, which keeps messages readable.
 * Following JSON Schema 2020-12, a number with a zero fraction ({@code 3.0}) counts as an integer.
 */
final class WireValues {

    private WireValues() {
    }

    /** An integral JSON number in {@code [min, max]}. */
    static long integer(String field, Object value, long min, long max) {
        BigDecimal n = number(field, value, "an integer");
        if (n.signum() != 0 && n.stripTrailingZeros().scale() > 0) {
            throw new PolicyViolation(field, "must be an integer, got " + n.toPlainString());
        }
        if (n.compareTo(BigDecimal.valueOf(min)) < 0) {
            throw new PolicyViolation(field, "must be >= " + min + ", got " + n.toPlainString());
        }
        if (n.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new PolicyViolation(field, "must be <= " + max + ", got " + n.toPlainString());
        }
        return n.longValueExact();
    }

    /** Any JSON number, exactly. */
    static BigDecimal number(String field, Object value, String expected) {
        if (value instanceof BigDecimal) {
            return (BigDecimal) value;
        }
        if (value instanceof BigInteger) {
            return new BigDecimal((BigInteger) value);
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                throw new PolicyViolation(field, "must be a finite number, got " + d);
            }
            return BigDecimal.valueOf(d);
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        if (value instanceof Number) {
            return otherNumber(field, (Number) value, expected);
        }
        throw wrongType(field, expected, value);
    }

    // Unusual Number types (AtomicLong, a library's own lazy number...) still print as plain decimals.
    private static BigDecimal otherNumber(String field, Number value, String expected) {
        try {
            return new BigDecimal(value.toString());
        } catch (NumberFormatException e) {
            throw wrongType(field, expected, value);
        }
    }

    static String string(String field, Object value) {
        if (value instanceof String) {
            return (String) value;
        }
        throw wrongType(field, "a string", value);
    }

    static boolean bool(String field, Object value) {
        if (value instanceof Boolean) {
            return (Boolean) value;
        }
        throw wrongType(field, "a boolean", value);
    }

    /** A JSON array whose items are all non-empty strings (schema: items string, minLength 1). */
    static List<String> nonEmptyStrings(String field, Object value) {
        if (!(value instanceof List)) {
            throw wrongType(field, "an array of strings", value);
        }
        List<?> items = (List<?>) value;
        List<String> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            if (!(item instanceof String) || ((String) item).isEmpty()) {
                throw new PolicyViolation(field, "must be an array of non-empty strings, item " + i
                        + " is " + describe(item));
            }
            out.add((String) item);
        }
        return out;
    }

    static PolicyViolation wrongType(String field, String expected, Object value) {
        return new PolicyViolation(field, "must be " + expected + ", got " + describe(value));
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "string \"" + value + "\"";
        }
        if (value instanceof Boolean) {
            return "boolean " + value;
        }
        if (value instanceof Number) {
            return "number " + value;
        }
        if (value instanceof List) {
            return "an array";
        }
        return value instanceof Map ? "an object" : value.getClass().getSimpleName();
    }
}
