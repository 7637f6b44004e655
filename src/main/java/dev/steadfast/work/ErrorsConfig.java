package dev.steadfast.work;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How much of the errors that FAIL reports is kept with the job. */
@ConfigMapping(prefix = "steadfast.errors")
public interface ErrorsConfig {

    /** Error history entries kept per job, most recent first to go; never fewer than 10. */
    @WithDefault("50")
    int historySize();

    /** Backtrace frames kept per error entry. */
    @WithDefault("50")
    int backtraceMaxFrames();

    /** Backtrace characters kept per error entry. */
    @WithDefault("10000")
    int backtraceMaxChars();
}
