package dev.steadfast.domain.retry;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strict parser and formatter for the ISO 8601 durations used by retry policies
 * (OJS retry spec section 4; RET-02, RET-19).
 *
 * <p>Accepted syntax is exactly the schema pattern of spec section 14,
 * {@code ^P(?!$)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$}: upper-case
 * designators only, ASCII digits, no sign, no weeks ({@code W}), a fraction only on seconds.
 * So {@code "PT0.5S"}, {@code "P1DT2H"} and {@code "PT0S"} are valid; {@code "P"}, {@code "PT"},
 * {@code "1S"}, {@code "PT-1S"}, {@code "pt1s"} and {@code "P1W"} are not.
 *
 * <p>Calendar units get fixed lengths because a retry delay has no calendar anchor:
 * {@code D} = 24 hours, {@code M} before {@code T} (months) = 30 days, {@code Y} = 365 days.
 * Fractions finer than a nanosecond are truncated toward zero. Durations longer than
 * {@link #MAX} are rejected so that {@code now + delay} can never overflow.
 */
public final class Iso8601Duration {

    /** Largest accepted duration: 36,500 days (about 100 years). A Steadfast limit, not an OJS one. */
    public static final Duration MAX = Duration.ofDays(36_500);

    /** The schema pattern from spec section 14, verbatim; kept to document and test equivalence. */
    static final Pattern SCHEMA_PATTERN = Pattern.compile(
            "^P(?!$)(\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+(\\.\\d+)?S)?)?$");

    // Same language as SCHEMA_PATTERN, with named groups so the numbers can be read back.
    private static final Pattern PARSER = Pattern.compile(
            "^P(?!$)(?:(?<y>\\d+)Y)?(?:(?<mo>\\d+)M)?(?:(?<d>\\d+)D)?"
            + "(?:T(?=\\d)(?:(?<h>\\d+)H)?(?:(?<mi>\\d+)M)?(?:(?<s>\\d+(?:\\.\\d+)?)S)?)?$");

    private static final long DAY = 86_400L;
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(MAX.getSeconds());

    private Iso8601Duration() {
    }

    /**
     * Parses {@code text} or throws {@link PolicyViolation} naming {@code field}.
     *
     * @param field qualified field name used in the violation, e.g. {@code "retry.initial_interval"}
     */
    public static Duration parse(String field, String text) {
        if (text == null) {
            throw new PolicyViolation(field, "must be an ISO 8601 duration string, got null");
        }
        Matcher m = PARSER.matcher(text);
        if (!m.matches()) {
            throw new PolicyViolation(field,
                    "must be an ISO 8601 duration such as \"PT1S\" or \"PT0.5S\", got \"" + text + "\"");
        }
        BigDecimal seconds = units(m, "y", 365 * DAY).add(units(m, "mo", 30 * DAY))
                .add(units(m, "d", DAY)).add(units(m, "h", 3_600)).add(units(m, "mi", 60))
                .add(units(m, "s", 1));
        if (seconds.compareTo(MAX_SECONDS) > 0) {
            throw new PolicyViolation(field, "must be at most " + format(MAX) + ", got \"" + text + "\"");
        }
        BigDecimal nanos = seconds.setScale(9, RoundingMode.DOWN).movePointRight(9);
        return Duration.ofNanos(nanos.longValueExact());
    }

    /**
     * Canonical text for a non-negative duration, using only H, M and S designators
     * (e.g. {@code "PT0S"}, {@code "PT0.5S"}, {@code "PT5M"}, {@code "PT24H"}).
     * The result always parses back to an equal duration when it is within {@link #MAX}.
     *
     * @throws IllegalArgumentException for a negative duration, which has no OJS form
     */
    public static String format(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("negative durations have no ISO form here: " + d);
        }
        // java.time never emits days, weeks or signs for a non-negative Duration, so this matches the schema.
        return d.toString();
    }

    private static BigDecimal units(Matcher m, String group, long secondsPerUnit) {
        String digits = m.group(group);
        return digits == null ? BigDecimal.ZERO : new BigDecimal(digits).multiply(BigDecimal.valueOf(secondsPerUnit));
    }
}
