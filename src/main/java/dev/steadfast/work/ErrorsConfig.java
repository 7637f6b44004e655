package dev.steadfast.work;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

/** How much of the errors that FAIL reports is kept with the job. */
@ConfigMapping(prefix = "steadfast.errors")
interface ErrorsConfig {

    /** Error history entries kept per job, most recent first to go; never fewer than 10. */
    @WithDefault("50")
    @Positive
    int historySize();

    /** Backtrace frames kept per error entry. */
    @WithDefault("50")
    @PositiveOrZero
    int backtraceMaxFrames();

    /** Backtrace characters kept per error entry. */
    @WithDefault("10000")
    @PositiveOrZero
    int backtraceMaxChars();
}
