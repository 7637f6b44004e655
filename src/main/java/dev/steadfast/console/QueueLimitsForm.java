package dev.steadfast.console;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.domain.retry.Iso8601Duration;
import dev.steadfast.domain.retry.PolicyViolation;
import java.time.Duration;

/**
 * The queue page's limits form as typed: concurrency, rate limit and rate period (ISO 8601, e.g. PT1M), each
 * empty for no limit. {@link #limits()} reads the text and leaves every range rule to {@link QueueLimits}, the
 * same record the admin API builds, so the console cannot accept what the API refuses; a value that is not a
 * number is refused here with a 400 naming the field.
 */
record QueueLimitsForm(String concurrency, String rateLimit, String ratePeriod) {

    static final QueueLimitsForm EMPTY = new QueueLimitsForm("", "", "");

    /** The form showing limits now in force. */
    static QueueLimitsForm of(QueueLimits l) {
        return new QueueLimitsForm(l.concurrency() == null ? "" : l.concurrency().toString(),
                l.rateLimit() == null ? "" : l.rateLimit().toString(),
                l.ratePeriod() == null ? "" : Iso8601Duration.format(l.ratePeriod()));
    }

    /** The limits typed, validated by {@link QueueLimits}; an OjsException (400) naming the field otherwise. */
    QueueLimits limits() {
        Integer c = whole("concurrency", concurrency);
        Integer r = whole("rate_limit", rateLimit);
        String p = ConsoleParams.text(ratePeriod);
        Duration period = null;
        if (p != null) {
            try {
                period = Iso8601Duration.parse("rate_period", p);
            } catch (PolicyViolation e) {
                throw OjsException.invalidField("rate_period", "'rate period' must be an ISO 8601 duration such as"
                        + " PT1M or PT30S.", "ISO 8601 duration", p);
            }
        }
        return new QueueLimits(r, period, c);
    }

    private static Integer whole(String field, String text) {
        String v = ConsoleParams.text(text);
        if (v == null) {
            return null;
        }
        try {
            return Integer.valueOf(v);
        } catch (NumberFormatException e) {
            throw OjsException.invalidField(field, "'" + field.replace('_', ' ') + "' must be a whole number (0 or"
                    + " more), or empty for no limit.", "a whole number", v);
        }
    }
}
