package dev.steadfast.model;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.List;

/**
 * Which jobs a console or admin listing shows; every field is optional (null means "any").
 *
 * @param typePrefix when true, {@code type} matches every type starting with it (e.g. {@code email.})
 * @param since      created at or after
 * @param until      created before
 * @param text       a substring (at least three characters) of the job's args, meta or error history
 * @param args       conditions on values inside the args, all of which must hold (empty: none)
 */
public record JobFilter(JobState state, String queue, String type, boolean typePrefix, String tag, Instant since,
                        Instant until, String text, List<ArgsEquals> args) {

    public static final JobFilter ALL = new JobFilter(null, null, null, false, null, null, null, null);

    public JobFilter {
        args = args == null ? List.of() : List.copyOf(args);
    }

    public JobFilter(JobState state, String queue, String type, boolean typePrefix, String tag, Instant since,
                     Instant until, String text) {
        this(state, queue, type, typePrefix, tag, since, until, text, List.of());
    }

    /**
     * Whether it has a text or args condition, the ones read through the trigram search indexes (SearchIndexes): a
     * part without one is read in order, a bounded number of rows at a time.
     */
    public boolean searchesText() {
        return text != null || !args.isEmpty();
    }

    /**
     * Whether a condition reads one of a closed history partition's own indexes (SearchIndexes: text and args, state,
     * queue, type, tag): today's partition has none of them, and is read in order, a bounded number of rows at a time.
     */
    public boolean usesClosedDayIndexes() {
        return searchesText() || state != null || queue != null || type != null || tag != null;
    }

    /** The same filter narrowed to one state (null: any). */
    public JobFilter withState(JobState s) {
        return new JobFilter(s, queue, type, typePrefix, tag, since, until, text, args);
    }

    /**
     * The value at {@code path} inside the args equals {@code json} (a JSON string, number or boolean, as its JSON
     * text). Each segment is an object key; arrays on the way are looked through (an OJS job's args are an array,
     * so {@code [user_id]} finds {@code {"user_id": 42}} as any of its arguments).
     *
     * @param path the keys, outermost first: letters, digits, {@code _} and {@code -} only
     */
    public record ArgsEquals(List<String> path, String json) {

        public ArgsEquals {
            path = List.copyOf(path);
            for (String key : path) {
                if (!key.matches("[A-Za-z0-9_-]{1,100}")) {
                    throw new IllegalArgumentException("args path segment: " + key);
                }
            }
        }
    }
}
