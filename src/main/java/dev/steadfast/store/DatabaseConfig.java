package dev.steadfast.store;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/**
 * Where this instance's two session connections go: the LISTEN connection ({@link JobNotifications}) and the
 * presence lock's connection ({@link InstancePresence}). Both need a PostgreSQL session of their own for as long as
 * the instance runs (LISTEN and a session-level advisory lock), which a pooler in transaction mode cannot give, so
 * behind such a pooler they are pointed straight at PostgreSQL (docs/operations/poolers.md). The pool's
 * credentials and TLS settings apply to both.
 */
@ConfigMapping(prefix = "steadfast.database")
public interface SessionConfig {

    /**
     * The URL of the session connections, in the reactive URL's form ({@code postgresql://db:5432/steadfast});
     * unset: the first URL of {@code quarkus.datasource.reactive.url}.
     */
    Optional<String> sessionUrl();
}
