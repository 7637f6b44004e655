package dev.steadfast.testsupport;

import dev.steadfast.store.JobNotifications;
import io.vertx.pgclient.PgConnectOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The test application's database settings, for tests that open a connection of their own beside the server's pool
 * (a second instance's presence, a bare LISTEN, an idle transaction).
 */
@ApplicationScoped
public class DatasourceSettings {

    @ConfigProperty(name = "quarkus.datasource.reactive.url")
    String reactiveUrl;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @ConfigProperty(name = "quarkus.datasource.username")
    Optional<String> user;

    @ConfigProperty(name = "quarkus.datasource.password")
    Optional<String> password;

    public String reactiveUrl() {
        return reactiveUrl;
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    public Optional<String> user() {
        return user;
    }

    public Optional<String> password() {
        return password;
    }

    /** Options for a Vert.x PostgreSQL connection of the test's own, as the server's session connections make them. */
    public PgConnectOptions connectOptions() {
        return JobNotifications.connectOptions(reactiveUrl, user, password);
    }
}
