package dev.steadfast.store.deadletters;

import java.time.Instant;

/**
 * Which dead-lettered jobs an operation applies to; every field is optional.
 *
 * @param errorType the type of the job's last error
 * @param since     dead-lettered at or after
 * @param until     dead-lettered before
 */
public record DeadLetterFilter(String queue, String type, String errorType, Instant since, Instant until) {

    public static final DeadLetterFilter ALL = new DeadLetterFilter(null, null, null, null, null);
}
