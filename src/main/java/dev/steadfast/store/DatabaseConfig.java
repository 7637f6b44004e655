package dev.steadfast.store;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * Where the database connections go beyond the reactive URL itself: the URL of this instance's two session
 * connections, the LISTEN connection ({@link JobNotifications}) and the presence lock's connection
 * ({@link InstancePresence}), which need a PostgreSQL session of their own for as long as the instance runs (LISTEN
 * and a session-level advisory lock), which a pooler in transaction mode cannot give (docs/operations/poolers.md);
 * and which of several listed hosts the connections go to ({@link PrimaryHosts}, docs/operations/failover.md). The
 * pool's credentials and TLS settings apply to every connection.
 */
@ConfigMapping(prefix = "steadfast.database")
interface DatabaseConfig {

    /**
     * The URL of the session connections, in the reactive URL's form ({@code postgresql://db:5432/steadfast}; a
     * comma-separated list of such URLs for several hosts); unset: {@code quarkus.datasource.reactive.url}.
     */
    Optional<String> sessionUrl();

    /**
     * With several hosts listed: {@code any} spreads new connections over them in turn (Quarkus' own behaviour);
     * {@code read-write} sends every new connection to the first host, from the last one found, whose sessions
     * accept writes (libpq's {@code target_session_attrs=read-write}), so the server follows a failover.
     */
    @WithDefault("any")
    TargetSessionAttrs targetSessionAttrs();
}
