package dev.steadfast.tools.ojs;

import java.util.List;

/**
 * A job to PUSH (ojs-http-binding.md 9.1): {@code id} null lets the server choose one.
 */
public record NewJob(String id, String type, List<?> args, Options options) {

    public static NewJob of(String type, List<?> args, String queue) {
        return new NewJob(null, type, args, new Options(queue, null, null, null));
    }

    public NewJob withId(String id) {
        return new NewJob(id, type, args, options);
    }

    /** The job's options the tools set; nulls are left out. */
    public record Options(String queue, RetryPolicy retry, Unique unique, RateLimit rateLimit) {
    }

    /** A per-key rate limit (ojs-rate-limiting.md 6): the key and a concurrency limit. */
    public record RateLimit(String key, int concurrency) {
    }

    /** A retry policy (ojs-core.md, retry). */
    public record RetryPolicy(int maxAttempts, String initialInterval, double backoffCoefficient,
                              String backoffStrategy, boolean jitter) {

        /** {@code maxAttempts} attempts {@code initialInterval} apart: no backoff, no jitter. */
        public static RetryPolicy fixed(int maxAttempts, String initialInterval) {
            return new RetryPolicy(maxAttempts, initialInterval, 1.0, "none", false);
        }
    }

    /** A unique policy over the given keys. */
    public record Unique(List<String> keys) {
    }

    /** The body of POST /ojs/v1/jobs/batch. */
    public record Batch(List<NewJob> jobs) {
    }
}
