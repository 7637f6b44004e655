package dev.steadfast.domain.unique;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.text.Normalizer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a JSON value (Map, List, String, Number, Boolean or null, as any JSON library decodes them) in the
 * canonical form ojs-unique-jobs.md 4.1 asks for: object keys sorted at every level (by UTF-16 code units, as
 * RFC 8785 does), no whitespace, strings normalised to Unicode NFC and escaped as RFC 8785 escapes them, integers
 * in plain decimal. Non-integral numbers are written as the shortest decimal that round-trips a double, with
 * RFC 8785's exponent form for very large or small magnitudes (its ECMAScript rules, to within the last digit for
 * values a double cannot represent exactly; such values are rare in job arguments).
 */
final class CanonicalJson {

    private CanonicalJson() {
    }

    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object v, StringBuilder out) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof String s) {
            string(s, out);
        } else if (v instanceof Boolean b) {
            out.append(b);
        } else if (v instanceof Number n) {
            number(n, out);
        } else if (v instanceof Map<?, ?> m) {
            Map<String, Object> sorted = new TreeMap<>();
            m.forEach((k, x) -> sorted.put(Normalizer.normalize(String.valueOf(k), Normalizer.Form.NFC), x));
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                string(e.getKey(), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (v instanceof List<?> l) {
            out.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(l.get(i), out);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
        }
    }

    private static void number(Number n, StringBuilder out) {
        if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte
                || n instanceof BigInteger) {
            out.append(n);
            return;
        }
        BigDecimal d = n instanceof BigDecimal b ? b : new BigDecimal(Double.toString(n.doubleValue()));
        if (d.signum() == 0) {
            out.append('0');
            return;
        }
        BigDecimal s = d.stripTrailingZeros();
        if (s.scale() <= 0 && s.precision() - s.scale() <= 21) {
            out.append(s.toBigIntegerExact());
            return;
        }
        double x = d.doubleValue();
        double abs = Math.abs(x);
        if (abs >= 1e-6 && abs < 1e21) {
            out.append(new BigDecimal(Double.toString(x)).stripTrailingZeros().toPlainString());
            return;
        }
        String e = Double.toString(x).replace("E", "e"); // e.g. 1.0e-7
        int at = e.indexOf('e');
        String mantissa = e.substring(0, at);
        if (mantissa.endsWith(".0")) {
            mantissa = mantissa.substring(0, mantissa.length() - 2);
        }
        String exp = e.substring(at + 1);
        out.append(mantissa).append('e').append(exp.startsWith("-") ? exp : "+" + exp);
    }

    private static void string(String raw, StringBuilder out) {
        String s = Normalizer.normalize(raw, Normalizer.Form.NFC);
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
