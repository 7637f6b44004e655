package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.ValidateResult;
import org.junit.jupiter.api.Test;

/**
 * The migrations run in version order only (no out-of-order mode): the test database, migrated by earlier runs of
 * this and earlier versions of the server, starts with nothing pending and validates; a fresh database takes every
 * migration in one start and nothing in a second start. Rule for new migrations: a branch takes the next number
 * above the highest one on main when it merges, never a gap below it (a database that already has a higher version
 * would refuse to start).
 */
@QuarkusTest
class MigrationsTest {

    static final String FRESH = "steadfast_test_fresh_migrations";

    @Inject
    Flyway flyway;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    String user;

    @ConfigProperty(name = "quarkus.datasource.password")
    String password;

    @Test
    void migrationsRunInVersionOrderOnly() {
        assertFalse(flyway.getConfiguration().isOutOfOrder(), "quarkus.flyway.out-of-order must stay off");
    }

    @Test
    void theStartedDatabaseHasEveryMigrationAndValidates() {
        assertEquals(0, flyway.info().pending().length, Arrays.toString(flyway.info().pending()));
        ValidateResult v = flyway.validateWithResult();
        assertTrue(v.validationSuccessful, String.valueOf(v.invalidMigrations));
        MigrationInfo[] applied = flyway.info().applied();
        assertEquals("38", applied[applied.length - 1].getVersion().getVersion());
    }

    @Test
    void aFreshDatabaseTakesEveryMigrationOnceAndStartsAgain() throws SQLException {
        recreate(FRESH);
        try {
            Flyway fresh = Flyway.configure().configuration(flyway.getConfiguration())
                    .dataSource(url.substring(0, url.lastIndexOf('/') + 1) + FRESH, user, password).load();
            int resolved = fresh.info().all().length;
            assertEquals(resolved, fresh.migrate().migrationsExecuted, "first start");
            assertEquals(0, fresh.migrate().migrationsExecuted, "second start");
            assertTrue(fresh.validateWithResult().validationSuccessful);
        } finally {
            drop(FRESH);
        }
    }

    private void recreate(String db) throws SQLException {
        drop(db);
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + db);
        }
    }

    private void drop(String db) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
        }
    }
}
