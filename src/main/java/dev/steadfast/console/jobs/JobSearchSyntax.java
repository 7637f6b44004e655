package dev.steadfast.console.jobs;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.steadfast.domain.OjsException;
import dev.steadfast.model.JobFilter.ArgsEquals;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The jobs page's search box: words of the form {@code args.<path>:<value>} are conditions on the args
 * ({@code args.user_id:42}, {@code args.address.city:Edinburgh}, {@code args.city:"New York"}), all of which must
 * hold; the other words, kept in order, are the text search (or a job id). A value is a JSON number
 * ({@code 42}, {@code -1.5}), {@code true} or {@code false}, or else a string; quotes make it a string whatever it
 * looks like ({@code args.user_id:"42"}) and may hold spaces (no escapes inside). Bad syntax is refused with a
 * message naming the word, as a 400 on field {@code q}.
 */
final class JobSearchSyntax {

    /** At most this many args conditions in one search. */
    static final int MAX_CONDITIONS = 5;
    static final int MAX_DEPTH = 8;
    static final int MAX_VALUE = 200;
    private static final String PREFIX = "args.";
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-]{1,100}");
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]{0,30})(\\.[0-9]{1,30})?([eE][+-]?[0-9]{1,3})?");

    private JobSearchSyntax() {
    }

    /** The search box, split: the text (null when none is left) and the args conditions. */
    public record Parsed(String text, List<ArgsEquals> args) {
    }

    public static Parsed parse(String q) {
        if (q == null || q.isBlank()) {
            return new Parsed(null, List.of());
        }
        List<String> words = new ArrayList<>();
        List<ArgsEquals> args = new ArrayList<>();
        int i = 0;
        int n = q.length();
        while (i < n) {
            if (Character.isWhitespace(q.charAt(i))) {
                i++;
                continue;
            }
            if (q.startsWith(PREFIX, i)) {
                i = condition(q, i, args);
            } else {
                int end = wordEnd(q, i);
                words.add(q.substring(i, end));
                i = end;
            }
        }
        if (args.size() > MAX_CONDITIONS) {
            throw bad("At most " + MAX_CONDITIONS + " args conditions can be combined in one search.");
        }
        return new Parsed(words.isEmpty() ? null : String.join(" ", words), List.copyOf(args));
    }

    /** Reads one {@code args.path:value} starting at {@code start}; answers where it ends. */
    private static int condition(String q, int start, List<ArgsEquals> out) {
        int colon = start;
        while (colon < q.length() && q.charAt(colon) != ':' && !Character.isWhitespace(q.charAt(colon))) {
            colon++;
        }
        String path = q.substring(start + PREFIX.length(), colon);
        String word = q.substring(start, colon);
        if (colon == q.length() || q.charAt(colon) != ':') {
            throw bad("'" + word + "' needs a value after a colon, as in args.user_id:42.");
        }
        List<String> keys = keys(word, path);
        int v = colon + 1;
        String value;
        boolean quoted = v < q.length() && q.charAt(v) == '"';
        int end;
        if (quoted) {
            int close = q.indexOf('"', v + 1);
            if (close < 0) {
                throw bad("The value of '" + word + "' opens a quote that is never closed.");
            }
            value = q.substring(v + 1, close);
            end = close + 1;
            if (end < q.length() && !Character.isWhitespace(q.charAt(end))) {
                throw bad("After the quoted value of '" + word + "' a space must follow.");
            }
        } else {
            end = wordEnd(q, v);
            value = q.substring(v, end);
            if (value.isEmpty()) {
                throw bad("'" + word + ":' needs a value after the colon, as in args.user_id:42.");
            }
        }
        if (value.length() > MAX_VALUE) {
            throw bad("The value of '" + word + "' is longer than " + MAX_VALUE + " characters.");
        }
        if (value.indexOf('\u0000') >= 0) {
            throw bad("The value of '" + word + "' contains a NUL character.");
        }
        out.add(new ArgsEquals(keys, quoted ? string(value) : json(value)));
        return end;
    }

    private static List<String> keys(String word, String path) {
        if (path.isEmpty()) {
            throw bad("'" + word + "' names no key: write args.<key>:<value>, as in args.user_id:42.");
        }
        String[] parts = path.split("\\.", -1);
        if (parts.length > MAX_DEPTH) {
            throw bad("'" + word + "' is deeper than " + MAX_DEPTH + " keys.");
        }
        for (String k : parts) {
            if (k.isEmpty()) {
                throw bad("'" + word + "' has an empty key between dots.");
            }
            if (!KEY.matcher(k).matches()) {
                throw bad("The key '" + k + "' in '" + word + "' may hold only letters, digits, '_' and '-'"
                        + " (at most 100).");
            }
        }
        return List.of(parts);
    }

    /** An unquoted value as JSON text: a number in its plain form, a boolean, or else a string. */
    static String json(String value) {
        if (value.equals("true") || value.equals("false")) {
            return value;
        }
        if (NUMBER.matcher(value).matches()) {
            BigDecimal d = new BigDecimal(value);
            if (d.scale() > -100 && d.scale() < 100) {
                String plain = d.stripTrailingZeros().toPlainString();
                return plain.length() <= MAX_VALUE ? plain : value;
            }
        }
        return string(value);
    }

    private static String string(String value) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(value)) + '"';
    }

    private static int wordEnd(String q, int i) {
        while (i < q.length() && !Character.isWhitespace(q.charAt(i))) {
            i++;
        }
        return i;
    }

    private static OjsException bad(String message) {
        return OjsException.invalidField("q", message + " (A search is words of text, or args.<path>:<value>"
                + " conditions, or both.)");
    }
}
