package dev.steadfast.domain;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The value rules of the OJS job envelope (ojs-core.md section 5), each refusing a bad value with a 400 that
 * names the field.
 *
 * <p>Job types follow the HTTP binding's OpenAPI pattern, which also allows hyphens inside a segment
 * ({@code retry.test.max-attempts}); the core spec's stricter pattern would refuse types the conformance suite
 * itself enqueues.
 */
public final class JobRules {

    public static final Pattern TYPE = Pattern.compile("^[a-z][a-z0-9_-]*(\\.[a-z][a-z0-9_-]*)*$");
    public static final Pattern QUEUE = Pattern.compile("^[a-z0-9][a-z0-9.-]*$");
    public static final int TYPE_MAX = 255;
    public static final int QUEUE_MAX = 128;
    public static final int PRIORITY_MIN = -100;
    public static final int PRIORITY_MAX = 100;
    public static final int TAGS_MAX = 64;
    public static final int TAG_MAX_LENGTH = 128;
    public static final String DEFAULT_QUEUE = "default";

    private JobRules() {
    }

    public static String checkType(String type) {
        if (type.isEmpty() || type.length() > TYPE_MAX || !TYPE.matcher(type).matches()) {
            throw OjsException.invalidField("type", "The 'type' field must be a dot-separated lowercase name such as "
                    + "'email.send' (segments match [a-z][a-z0-9_-]*, at most " + TYPE_MAX + " characters).",
                    TYPE.pattern(), type);
        }
        return type;
    }

    /** Whether {@code queue} is a valid queue name. */
    public static boolean isQueue(String queue) {
        return queue != null && !queue.isEmpty() && queue.length() <= QUEUE_MAX && QUEUE.matcher(queue).matches();
    }

    public static String checkQueue(String queue) {
        if (!isQueue(queue)) {
            throw OjsException.invalidField("options.queue", "The queue name must match " + QUEUE.pattern()
                    + " (lowercase letters, digits, '-' and '.', starting with a letter or digit; at most "
                    + QUEUE_MAX + " characters).", QUEUE.pattern(), queue);
        }
        return queue;
    }

    public static int checkPriority(long priority) {
        if (priority < PRIORITY_MIN || priority > PRIORITY_MAX) {
            throw OjsException.invalidField("options.priority", "The priority must be an integer from "
                    + PRIORITY_MIN + " to " + PRIORITY_MAX + ".", "integer in [-100, 100]", Long.toString(priority));
        }
        return (int) priority;
    }

    public static String checkId(String id) {
        if (!JobIds.isUuidV7(id)) {
            throw OjsException.invalidField("id", "The 'id' field must be a lowercase hyphenated UUIDv7.",
                    JobIds.UUID_V7.pattern(), id);
        }
        return id;
    }

    public static List<String> checkTags(List<String> tags) {
        if (tags.size() > TAGS_MAX) {
            throw OjsException.invalidField("options.tags", "At most " + TAGS_MAX + " tags are allowed.");
        }
        for (String t : tags) {
            if (t.isEmpty() || t.length() > TAG_MAX_LENGTH) {
                throw OjsException.invalidField("options.tags", "Tags must be non-empty strings of at most "
                        + TAG_MAX_LENGTH + " characters.");
            }
        }
        return tags;
    }

    /** A positive millisecond duration such as timeout_ms or visibility_timeout_ms. */
    public static long checkPositiveMillis(String field, long ms, long max) {
        if (ms <= 0 || ms > max) {
            throw OjsException.invalidField(field, "'" + field + "' must be a positive integer number of "
                    + "milliseconds of at most " + max + ".", "integer in [1, " + max + "]", Long.toString(ms));
        }
        return ms;
    }
}
