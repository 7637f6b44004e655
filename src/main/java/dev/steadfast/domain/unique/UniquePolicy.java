package dev.steadfast.domain.unique;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A job's deduplication policy (ojs-unique-jobs.md section 2), validated. {@code type} is always part of the
 * fingerprint; {@code dimensions} adds {@code queue}, {@code args} and {@code meta}. {@code customKey} is a
 * caller-chosen key (a string {@code unique.key}) that replaces the args/meta/queue dimensions (the type still
 * counts). {@code period} null means no time limit. The policy is only read at enqueue time (9.2: a retry does not
 * check it again). {@link UniqueRequest} builds one from the shapes a request may use.
 *
 * @param argsKeys  the top-level keys of the job's first argument object to fingerprint, or null for all of args
 * @param metaKeys  the meta keys to fingerprint (required, non-empty, when {@code meta} is a dimension)
 * @param field     where the policy was in the request ({@code options.unique} or {@code unique}), for errors
 * @param argsField the request field that named {@code argsKeys} ({@code <field>.args_keys} or {@code <field>.key}),
 *                  named when the job's args do not have them
 */
public record UniquePolicy(Set<Dimension> dimensions, List<String> argsKeys, List<String> metaKeys, String customKey,
                           Duration period, Set<JobState> states, OnConflict onConflict, String field,
                           String argsField) {

    /** The default states (6.1): every non-terminal state. */
    public static final Set<JobState> DEFAULT_STATES = Set.copyOf(EnumSet.of(JobState.AVAILABLE, JobState.ACTIVE,
            JobState.SCHEDULED, JobState.RETRYABLE, JobState.PENDING));

    /** Where a policy is read from unless told otherwise (the HTTP binding's shape). */
    public static final String DEFAULT_FIELD = "options.unique";

    /** The parts of a job a fingerprint may cover (3). */
    public enum Dimension {
        TYPE, QUEUE, ARGS, META;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A policy read from {@code options.unique} whose args fields, if any, came from {@code args_keys}. */
    public UniquePolicy(Set<Dimension> dimensions, List<String> argsKeys, List<String> metaKeys, String customKey,
                        Duration period, Set<JobState> states, OnConflict onConflict) {
        this(dimensions, argsKeys, metaKeys, customKey, period, states, onConflict, null, null);
    }

    public UniquePolicy {
        dimensions = Set.copyOf(dimensions.isEmpty() ? EnumSet.of(Dimension.TYPE) : dimensions);
        states = Set.copyOf(states == null || states.isEmpty() ? DEFAULT_STATES : states);
        argsKeys = argsKeys == null ? null : List.copyOf(argsKeys);
        metaKeys = metaKeys == null ? null : List.copyOf(metaKeys);
        onConflict = onConflict == null ? OnConflict.REJECT : onConflict;
        field = field == null ? DEFAULT_FIELD : field;
        argsField = argsField == null ? field + ".args_keys" : argsField;
        if (dimensions.contains(Dimension.META) && (metaKeys == null || metaKeys.isEmpty())) {
            throw OjsException.invalidField(field + ".meta_keys", "'" + field + ".meta_keys' must name at least one"
                    + " key when 'meta' is in 'keys' (ojs-unique-jobs 2.2).", "non-empty array of strings",
                    metaKeys == null ? "absent" : "empty array");
        }
        if (period != null && (period.isNegative() || period.isZero())) {
            throw OjsException.invalidField(field + ".period", "'" + field + ".period' must be positive.",
                    "positive ISO 8601 duration", period.toString());
        }
        if (customKey != null && (customKey.isEmpty() || customKey.length() > 1024)) {
            throw OjsException.invalidField(field + ".key", "'" + field + ".key' must be 1 to 1024 characters.",
                    "1 to 1024 characters", customKey.length() + " characters");
        }
    }
}
