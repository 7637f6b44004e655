package dev.steadfast.domain.errors;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Normalises an error message so that failures with the same cause read the same: the values that differ from one
 * failure to the next are masked, in this order (an earlier mask is never read again by a later one):
 * URLs ({@code <url>}), e-mail addresses ({@code <email>}), quoted values ({@code "?"}, {@code '?'},
 * {@code `?`}), UUIDs ({@code <uuid>}), hex values ({@code 0x1f}, and runs of at least 8 hex digits with a
 * digit and a letter among them: {@code <hex>}), long identifiers mixing letters and digits (16 or more
 * characters: {@code <id>}) and numbers ({@code <n>}, decimals and digit groups included); then whitespace is
 * collapsed. {@code Job 42 failed for 'a@b.io' after 3.5s} and {@code Job 7 failed for 'x' after 10s} both read
 * {@code Job <n> failed for '?' after <n>s}.
 *
 * <p>Bounded: only the first {@link #READ_CHARS} characters of a message are read and at most {@link #MAX_CHARS}
 * are kept, so a megabyte of message costs what a short one does. An apostrophe inside a word ({@code can't})
 * does not start a quoted value.
 */
final class ErrorMessages {

    /** How much of a message is read. */
    public static final int READ_CHARS = 2_000;
    /** How much of a normalised message is kept. */
    public static final int MAX_CHARS = 300;

    private record Mask(Pattern pattern, String replacement) {
    }

    private static final String NOT_WORD_BEFORE = "(?<![\\p{L}\\p{N}_])";
    private static final String NOT_WORD_AFTER = "(?![\\p{L}\\p{N}_])";

    private static final List<Mask> MASKS = List.of(
            mask("\\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\\s\"'`<>]+", "<url>"),
            mask("[\\w.+-]+@[\\w-]+(\\.[\\w-]+)+", "<email>"),
            mask(NOT_WORD_BEFORE + "\"[^\"\\n]{0,500}\"", "\"?\""),
            mask(NOT_WORD_BEFORE + "'[^'\\n]{0,500}'" + NOT_WORD_AFTER, "'?'"),
            mask("`[^`\\n]{0,500}`", "`?`"),
            mask("(?i)" + NOT_WORD_BEFORE + "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" + NOT_WORD_AFTER,
                    "<uuid>"),
            mask("(?i)" + NOT_WORD_BEFORE + "0x[0-9a-f]+" + NOT_WORD_AFTER, "<hex>"),
            mask("(?i)" + NOT_WORD_BEFORE + "(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{8,}" + NOT_WORD_AFTER,
                    "<hex>"),
            mask(NOT_WORD_BEFORE + "(?=[\\w-]*[0-9])(?=[\\w-]*[A-Za-z])[A-Za-z0-9][\\w-]{15,}" + NOT_WORD_AFTER,
                    "<id>"),
            mask("[0-9]+([.,:][0-9]+)*", "<n>"),
            mask("\\s+", " "));

    private ErrorMessages() {
    }

    private static Mask mask(String regex, String replacement) {
        return new Mask(Pattern.compile(regex), Matcher.quoteReplacement(replacement));
    }

    /** The message with its varying values masked; empty for a null or blank message. */
    public static String normalise(String message) {
        if (message == null) {
            return "";
        }
        String s = message.length() > READ_CHARS ? message.substring(0, READ_CHARS) : message;
        for (Mask m : MASKS) {
            s = m.pattern().matcher(s).replaceAll(m.replacement());
        }
        s = s.strip();
        return s.length() > MAX_CHARS ? s.substring(0, MAX_CHARS) : s;
    }
}
