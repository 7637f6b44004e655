package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.configuration.FluentConfiguration;
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
    static final String UPGRADE = "steadfast_test_upgrade_migrations";

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
        assertEquals("41", applied[applied.length - 1].getVersion().getVersion());
    }

    @Test
    void aFreshDatabaseTakesEveryMigrationOnceAndStartsAgain() throws SQLException {
        recreate(FRESH);
        try {
            Flyway fresh = flywayOn(FRESH).load();
            int resolved = fresh.info().all().length;
            assertEquals(resolved, fresh.migrate().migrationsExecuted, "first start");
            assertEquals(0, fresh.migrate().migrationsExecuted, "second start");
            assertTrue(fresh.validateWithResult().validationSuccessful);
        } finally {
            drop(FRESH);
        }
    }

    /**
     * V39 rebuilds the live table in another column order: every row of every live state comes through with every
     * value (compared as name-keyed JSON, which does not depend on the order), and all_jobs answers the same, with
     * lease_check_at now among its columns (V36 added it to both tables but did not rebuild the view).
     */
    @Test
    void v39KeepsEveryLiveRowWhole() throws SQLException {
        recreate(UPGRADE);
        String db = urlOf(UPGRADE);
        try {
            flywayOn(UPGRADE).target("38").load().migrate();
            String rows = "SELECT jsonb_agg(to_jsonb(j) ORDER BY id)::text FROM jobs j";
            String view = "SELECT jsonb_agg(to_jsonb(a) - 'lease_check_at' ORDER BY id)::text FROM all_jobs a";
            String before;
            String beforeView;
            try (Connection c = DriverManager.getConnection(db, user, password); Statement s = c.createStatement()) {
                s.execute("""
                        INSERT INTO jobs (id, type, queue, args, meta, tags, state, attempt, max_attempts, retry_policy,
                                          errors, error, visibility_timeout_ms, timeout_ms, run_at, created_at,
                                          enqueued_at, started_at, lease_owner, lease_expires_at, lease_check_at,
                                          expires_at, unique_key, tenant_id, rate_limit_key, error_group)
                        SELECT gen_random_uuid(), 'email.send', 'q' || (n % 3), jsonb_build_array(n, 'x'),
                               jsonb_build_object('n', n), ARRAY['t' || n],
                               (ARRAY['available', 'scheduled', 'retryable', 'active', 'pending'])[n % 5 + 1],
                               CASE WHEN n % 5 = 3 THEN 1 ELSE 0 END, 5, '{"jitter": false}',
                               CASE WHEN n % 5 = 2 THEN '[{"code": "boom"}]'::jsonb ELSE '[]' END,
                               CASE WHEN n % 5 = 2 THEN '{"code": "boom"}'::jsonb END,
                               30000, CASE WHEN n % 2 = 0 THEN 60000 END,
                               CASE WHEN n % 5 < 3 THEN now() + n * interval '1 s' END, now() - n * interval '1 s',
                               now(), CASE WHEN n % 5 = 3 THEN now() END, CASE WHEN n % 5 = 3 THEN 'w-' || n END,
                               CASE WHEN n % 5 = 3 THEN now() + interval '1 min' END,
                               CASE WHEN n % 5 = 3 THEN now() + interval '1 min' END,
                               CASE WHEN n % 7 = 0 THEN now() + interval '1 h' END,
                               CASE WHEN n % 11 = 0 THEN md5(n::text) || md5(n::text) END,
                               CASE WHEN n % 13 = 0 THEN 'acme' END, CASE WHEN n % 17 = 0 THEN 'k' END,
                               CASE WHEN n % 5 = 2 THEN 1 END
                        FROM generate_series(1, 200) n""");
                before = one(s, rows);
                beforeView = one(s, view);
            }
            flywayOn(UPGRADE).target("39").load().migrate();
            try (Connection c = DriverManager.getConnection(db, user, password); Statement s = c.createStatement()) {
                assertEquals(before, one(s, rows));
                assertEquals(beforeView, one(s, view));
                assertEquals("200", one(s, "SELECT count(lease_check_at) + count(*) FILTER (WHERE state <> 'active')"
                        + " FROM all_jobs"));
                assertEquals("39", one(s, "SELECT max(version::int)::text FROM flyway_schema_history"));
            }
        } finally {
            drop(UPGRADE);
        }
    }

    private static String one(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }

    /** The JDBC URL of the database {@code db} on the test database's server. */
    private String urlOf(String db) {
        return url.substring(0, url.lastIndexOf('/') + 1) + db;
    }

    /** This application's Flyway configuration, on the database {@code db}. */
    private FluentConfiguration flywayOn(String db) {
        return Flyway.configure().configuration(flyway.getConfiguration()).dataSource(urlOf(db), user, password);
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
