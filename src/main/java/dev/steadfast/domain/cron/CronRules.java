package dev.steadfast.domain.cron;

import dev.steadfast.domain.OjsException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.regex.Pattern;

/** Value rules of a cron registration (ojs-cron.md 2.2 and 5.1), each refusal naming its field. */
public final class CronRules {

    public static final Pattern NAME = Pattern.compile("^[a-z0-9][a-z0-9.-]*$");
    public static final int NAME_MAX = 255;
    public static final int EXPRESSION_MAX = 255;
    public static final String DEFAULT_TIMEZONE = "UTC";

    private CronRules() {
    }

    public static String checkName(String name) {
        if (name.length() > NAME_MAX || !NAME.matcher(name).matches()) {
            throw OjsException.invalidField("name", "'name' must be lowercase letters, digits, '-' and '.', starting"
                    + " with a letter or digit, at most " + NAME_MAX + " characters.", NAME.pattern(), name);
        }
        return name;
    }

    /**
     * An IANA zone name (ojs-cron.md 5.1): {@code UTC} or an {@code Area/Location} name the runtime's tz database
     * knows. Fixed offsets ({@code +05:00}, {@code UTC+5}) and abbreviations ({@code EST}) are refused: they do
     * not follow daylight saving time.
     */
    public static ZoneId checkTimezone(String tz) {
        boolean iana = tz.equals(DEFAULT_TIMEZONE) || tz.indexOf('/') > 0 && ZoneId.getAvailableZoneIds().contains(tz);
        if (iana) {
            try {
                return ZoneId.of(tz);
            } catch (DateTimeException e) {
                iana = false;
            }
        }
        throw OjsException.invalidField("timezone", "'timezone' must be an IANA time zone name such as"
                + " America/New_York or UTC; fixed offsets and abbreviations are refused (ojs-cron.md 5.1).",
                "IANA time zone", tz);
    }

    public static OverlapPolicy checkOverlap(String s) {
        if (s == null) {
            return OverlapPolicy.SKIP;
        }
        OverlapPolicy p = OverlapPolicy.of(s);
        if (p == null) {
            throw OjsException.invalidField("overlap_policy", "'overlap_policy' must be skip, allow,"
                    + " cancel_previous or enqueue.", "skip | allow | cancel_previous | enqueue", s);
        }
        return p;
    }
}
