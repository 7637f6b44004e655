package dev.steadfast.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Steadfast's own settings, under the {@code steadfast.} prefix (environment: {@code STEADFAST_...}). */
@ConfigMapping(prefix = "steadfast")
public interface SteadfastConfig {

    Admin admin();

    Http http();

    Jobs jobs();

    Fetch fetch();

    Errors errors();

    Events events();

    interface Admin {
        /** Serve POST /ojs/v1/admin/reset, which empties every table. Off unless set (on in dev and test). */
        @WithDefault("false")
        boolean resetEnabled();
    }

    interface Http {
        /** Largest request body accepted; larger bodies get 413 payload_too_large. */
        @WithDefault("1048576")
        long maxBodyBytes();
    }

    interface Jobs {
        /** Lease (visibility timeout) of a fetched job when neither the job nor the fetch sets one. */
        @WithDefault("PT30S")
        Duration defaultVisibilityTimeout();

        /** Execution timeout of a job that sets no timeout_ms (ojs-core.md recommends 30 minutes). */
        @WithDefault("PT30M")
        Duration defaultTimeout();

        /** Upper bound accepted for timeout_ms and visibility_timeout_ms. */
        @WithDefault("P7D")
        Duration maxTimeout();
    }

    interface Fetch {
        /** Largest count one fetch may ask for. */
        @WithDefault("1000")
        int maxCount();
    }

    interface Errors {
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

    interface Events {
        /** Recent lifecycle events kept in memory for GET /ojs/v1/events. */
        @WithDefault("10000")
        int bufferSize();
    }
}
