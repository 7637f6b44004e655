package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import java.time.Instant;

/**
 * Which jobs a console or admin listing shows; every field is optional (null means "any").
 *
 * @param typePrefix when true, {@code type} matches every type starting with it (e.g. {@code email.})
 * @param since      created at or after
 * @param until      created before
 * @param text       a substring (at least three characters) of the job's args, meta or error history
 */
public record JobFilter(JobState state, String queue, String type, boolean typePrefix, String tag, Instant since,
                        Instant until, String text) {

    public static final JobFilter ALL = new JobFilter(null, null, null, false, null, null, null, null);
}
