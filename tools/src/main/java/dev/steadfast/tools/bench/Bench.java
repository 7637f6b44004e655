package dev.steadfast.tools.bench;

import dev.steadfast.tools.ojs.NewJob;
import dev.steadfast.tools.ojs.OjsClient;
import java.util.ArrayList;
import java.util.List;

/**
 * What every part of a bench run shares: the options, the client, the server's pid (-1 when unknown), and the
 * no-op jobs it enqueues ({@code bench.noop}, one integer argument; with {@code --unique on} a unique policy over
 * type and args, whose keys are all distinct, so nothing conflicts; with {@code --rate-limit-keys N} a rate limit
 * key, {@code bench-k<arg mod N>}, with a concurrency limit nothing reaches).
 */
record Bench(BenchOptions opt, OjsClient client, long serverPid) {

    static final String BATCH_PUSH = "/ojs/v1/jobs/batch";
    static final String PUSH = "/ojs/v1/jobs";

    /** The concurrency limit of --rate-limit-keys: more than any bench keeps active, so no job is held. */
    static final int RATE_LIMIT_CONCURRENCY = 1_000_000;

    NewJob job(String queue, int arg) {
        return job(queue, arg, null);
    }

    /** A no-op job; {@code retry} null leaves the server's default policy. */
    NewJob job(String queue, int arg, NewJob.RetryPolicy retry) {
        return new NewJob(null, "bench.noop", List.of(arg), new NewJob.Options(queue, retry,
                opt.unique ? new NewJob.Unique(List.of("type", "args")) : null,
                opt.rateLimitKeys > 0 ? new NewJob.RateLimit("bench-k" + Math.floorMod(arg, opt.rateLimitKeys),
                        RATE_LIMIT_CONCURRENCY) : null));
    }

    NewJob.Batch batch(String queue, int firstArg, int size) {
        return batch(queue, firstArg, size, null);
    }

    NewJob.Batch batch(String queue, int firstArg, int size, NewJob.RetryPolicy retry) {
        List<NewJob> jobs = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            jobs.add(job(queue, firstArg + i, retry));
        }
        return new NewJob.Batch(jobs);
    }

    /** W4's policy: 3 attempts {@code initialInterval} apart, no backoff, no jitter. */
    static NewJob.RetryPolicy retryPolicy(String initialInterval) {
        return new NewJob.RetryPolicy(3, initialInterval, 1.0, "none", false);
    }

    static double secs(long nanos) {
        return nanos / 1e9;
    }

    static Object round2(double v) {
        return Double.isNaN(v) ? null : Math.round(v * 100) / 100.0;
    }
}
