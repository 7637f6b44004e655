package dev.steadfast.domain.webhook;

import dev.steadfast.domain.OjsException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which events a webhook subscription receives (ojs-webhooks 5.2): the event types, each exact
 * ({@code job.completed}), a prefix wildcard ({@code job.*}: every type starting {@code job.}, also
 * {@code webhook.subscription.created} for {@code webhook.*}) or everything ({@code *}); and, optionally, the queues
 * and job types the event must be about. An empty queue or job-type list does not filter; a non-empty one lets only
 * events naming one of its values through (an event without a queue or job type, such as a queue event for
 * {@code job_types}, never passes it).
 */
public record EventFilter(List<String> events, List<String> queues, List<String> jobTypes) {

    /** An event type or a wildcard over types: lower-case dotted words, optionally ending in {@code .*}. */
    public static final Pattern PATTERN = Pattern.compile("^\\*$|^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*(\\.\\*)?$");
    public static final int MAX_EVENTS = 100;
    public static final int MAX_VALUES = 100;
    public static final int MAX_LENGTH = 200;

    public EventFilter {
        events = List.copyOf(events);
        queues = List.copyOf(queues);
        jobTypes = List.copyOf(jobTypes);
    }

    /** True when an event of {@code type} about {@code queue} and {@code jobType} (either may be null) passes. */
    public boolean matches(String type, String queue, String jobType) {
        return typeMatches(type) && in(queues, queue) && in(jobTypes, jobType);
    }

    /** True when {@code type} matches one of the patterns. */
    public boolean typeMatches(String type) {
        for (String p : events) {
            if (p.equals("*") || p.equals(type)
                    || p.endsWith(".*") && type.startsWith(p.substring(0, p.length() - 1))) {
                return true;
            }
        }
        return false;
    }

    private static boolean in(List<String> wanted, String value) {
        return wanted.isEmpty() || value != null && wanted.contains(value);
    }

    /** The patterns when each is well-formed; otherwise 400 naming the first bad one's index in {@code field}. */
    public static List<String> checkEvents(String field, List<String> events) {
        if (events.isEmpty() || events.size() > MAX_EVENTS) {
            throw OjsException.invalidField(field, "'" + field + "' must list 1 to " + MAX_EVENTS + " event types.",
                    "1 to " + MAX_EVENTS + " event types", events.size() + " items");
        }
        for (int i = 0; i < events.size(); i++) {
            String e = events.get(i);
            if (e.length() > MAX_LENGTH || !PATTERN.matcher(e).matches()) {
                String at = field + "[" + i + "]";
                throw OjsException.invalidField(at, "'" + at + "' must be an event type such as job.completed, a"
                        + " wildcard such as job.*, or *.", PATTERN.pattern(), shown(e));
            }
        }
        return List.copyOf(new LinkedHashSet<>(events));
    }

    /** Queue or job-type names of a filter: at most {@link #MAX_VALUES}, each 1 to {@link #MAX_LENGTH} characters. */
    public static List<String> checkValues(String field, List<String> values) {
        if (values.size() > MAX_VALUES) {
            throw OjsException.invalidField(field, "'" + field + "' may list at most " + MAX_VALUES + " values.",
                    "at most " + MAX_VALUES + " values", values.size() + " items");
        }
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i);
            if (v.isEmpty() || v.length() > MAX_LENGTH || v.chars().anyMatch(Character::isISOControl)) {
                String at = field + "[" + i + "]";
                throw OjsException.invalidField(at, "'" + at + "' must be 1 to " + MAX_LENGTH
                        + " characters without control characters.", "a name", shown(v));
            }
        }
        return List.copyOf(new LinkedHashSet<>(values));
    }

    static String shown(String s) {
        String cut = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }
}
