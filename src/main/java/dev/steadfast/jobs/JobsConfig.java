package dev.steadfast.jobs;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/** Defaults and bounds of the jobs PUSH accepts (also read by FETCH, workflows and the manifest). */
@ConfigMapping(prefix = "steadfast.jobs")
public interface JobsConfig {

    /** Lease (visibility timeout) of a fetched job when neither the job nor the fetch sets one. */
    @WithDefault("PT30S")
    @DurationMin(millis = 1)
    Duration defaultVisibilityTimeout();

    /** Execution timeout of a job that sets no timeout_ms (ojs-core.md recommends 30 minutes). */
    @WithDefault("PT30M")
    @DurationMin(millis = 1)
    Duration defaultTimeout();

    /** Most jobs one POST /ojs/v1/jobs/batch may carry. */
    @WithDefault("1000")
    @Positive
    int maxBatch();

    /** Upper bound accepted for timeout_ms and visibility_timeout_ms. */
    @WithDefault("P7D")
    @DurationMin(millis = 1)
    Duration maxTimeout();
}
