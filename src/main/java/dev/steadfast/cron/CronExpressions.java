package dev.steadfast.cron;

import com.cronutils.descriptor.CronDescriptor;
import com.cronutils.model.Cron;
import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.cron.FireTimes;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Cron expressions (ojs-cron.md sections 3 and 4) parsed and evaluated by cron-utils, behind the domain's
 * {@link FireTimes}. The definition is POSIX's five fields with strict ranges (minute 0-59, hour 0-23, day of
 * month 1-31, month 1-12 or JAN-DEC, day of week 0-7 or SUN-SAT, 0 and 7 both Sunday, names case-insensitive),
 * {@code * , - /} everywhere, {@code L} and {@code W} in the day of month, {@code L} and {@code #} in the day of
 * week, and the nicknames {@code @yearly @annually @monthly @weekly @daily @midnight @hourly}. Six-field
 * (seconds) expressions and {@code @every} are refused. Occurrences are computed in the schedule's zone, so a
 * time skipped by a spring-forward transition does not fire that day and a time repeated by a fall-back fires
 * once, at its first occurrence (ojs-cron.md 5.2; cron-utils' behaviour, checked in CronExpressionsTest).
 */
final class CronExpressions {

    private static final CronDefinition POSIX = CronDefinitionBuilder.defineCron()
            .withMinutes().withValidRange(0, 59).withStrictRange().and()
            .withHours().withValidRange(0, 23).withStrictRange().and()
            .withDayOfMonth().withValidRange(1, 31).supportsL().supportsW().supportsLW().withStrictRange().and()
            .withMonth().withValidRange(1, 12).withStrictRange().and()
            .withDayOfWeek().withValidRange(0, 7).withMondayDoWValue(1).withIntMapping(7, 0).supportsHash()
            .supportsL().withStrictRange().and()
            .withSupportedNicknameHourly().withSupportedNicknameDaily().withSupportedNicknameMidnight()
            .withSupportedNicknameWeekly().withSupportedNicknameMonthly().withSupportedNicknameYearly()
            .withSupportedNicknameAnnually()
            .instance();
    private static final CronParser PARSER = new CronParser(POSIX);

    /** Parsed expressions by text: parsing is the costly part, and schedules are few. */
    private static final Map<String, ExecutionTime> CACHE = new ConcurrentHashMap<>();

    private CronExpressions() {
    }

    /**
     * The occurrences of {@code expression} in {@code zone}; a malformed expression, or one that never fires, is
     * refused with 400 invalid_request naming {@code field} (ojs-cron.md 3.5).
     */
    public static FireTimes parse(String field, String expression, ZoneId zone) {
        ExecutionTime times = CACHE.get(expression);
        if (times == null) {
            times = compile(field, expression);
            if (CACHE.size() > 10_000) {
                CACHE.clear();
            }
            CACHE.put(expression, times);
        }
        ExecutionTime t = times;
        FireTimes fire = after -> t.nextExecution(ZonedDateTime.ofInstant(after, zone)).map(ZonedDateTime::toInstant);
        if (fire.nextAfter(Instant.EPOCH).isEmpty()) { // cron-utils searches a bounded span of years
            throw OjsException.invalidField(field, "The cron expression '" + expression + "' never fires.",
                    "a cron expression with at least one occurrence", expression);
        }
        return fire;
    }

    /**
     * The expression in words ("every 15 minutes", "at 02:00 at Monday day"), by cron-utils' {@link CronDescriptor}
     * in English; a nickname is described by its five-field form ({@code @daily}: "at 00:00"). An expression this
     * class would refuse is refused the same way (400 naming {@code field}).
     */
    public static String describe(String field, String expression) {
        return parsed(field, expression, DESCRIBE::describe);
    }

    private static final CronDescriptor DESCRIBE = CronDescriptor.instance(Locale.ENGLISH);

    private static ExecutionTime compile(String field, String expression) {
        return parsed(field, expression, ExecutionTime::forCron);
    }

    /**
     * The expression parsed and validated, then {@code use}d; anything either refuses is a 400 naming {@code field}
     * (one rule for what {@link #describe} and the schedule accept).
     */
    private static <T> T parsed(String field, String expression, Function<Cron, T> use) {
        String text = expression.trim();
        if (text.startsWith("@every")) {
            throw invalid(field, expression, "'@every' intervals are not supported; use a cron expression");
        }
        try {
            Cron cron = PARSER.parse(text);
            cron.validate();
            return use.apply(cron);
        } catch (RuntimeException e) {
            throw invalid(field, expression, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    private static OjsException invalid(String field, String expression, String why) {
        return OjsException.invalidField(field, "Invalid cron expression '" + expression + "': " + why + ". Use five"
                + " fields (minute hour day-of-month month day-of-week) or @hourly, @daily, @weekly, @monthly,"
                + " @yearly.", "5-field cron expression", expression);
    }
}
