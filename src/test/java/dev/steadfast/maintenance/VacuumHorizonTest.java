package dev.steadfast.maintenance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.TestClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import dev.steadfast.testsupport.DatasourceSettings;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;

/**
 * A client left idle in a REPEATABLE READ transaction is seen: its age in the gauges and in the readiness details,
 * and a warning once it is older than steadfast.vacuum-horizon.warn-after (the sampler is run as of a later
 * instant instead of waiting); readiness stays UP. Once it commits, the horizon is free again.
 */
@QuarkusTest
class VacuumHorizonTest {

    @Inject
    VacuumHorizon horizon;

    @Inject
    @Readiness
    VacuumHorizonReadiness readiness;

    @Inject
    MeterRegistry meters;

    @Inject
    TestClock clock;

    @Inject
    DatasourceSettings db;

    @Test
    void anIdleTransactionIsSeenInTheMetricAndReadinessAndWarnedAboutPastTheThreshold() throws Exception {
        int pid;
        try (Connection idle = DriverManager.getConnection(db.jdbcUrl(), db.user().orElse(null),
                db.password().orElse(null))) {
            idle.setAutoCommit(false);
            idle.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement s = idle.createStatement(); ResultSet r = s.executeQuery("SELECT pg_backend_pid()")) {
                r.next();
                pid = r.getInt(1); // the snapshot is taken: the session is now idle in transaction, holding it
            }
            Instant later = clock.instant().plus(horizon.warnAfter()).plusSeconds(60);
            VacuumHorizon.Reading r = horizon.runOnce(later).await().atMost(Duration.ofSeconds(10));
            assertTrue(r.oldestSeconds() > horizon.warnAfter().toSeconds(), r.toString());
            assertTrue(r.horizonSeconds() > horizon.warnAfter().toSeconds(), r.toString());
            assertTrue(r.horizonXids() >= 0, r.toString());
            assertNotNull(r.warning(horizon.warnAfter()), r.toString());

            HealthCheckResponse h = readiness.call();
            assertEquals(HealthCheckResponse.Status.UP, h.getStatus(), "an idle client does not take readiness down");
            assertTrue(h.getData().orElseThrow().containsKey("warning"), h.getData().toString());
            assertTrue((Long) h.getData().orElseThrow().get("horizon_seconds") > horizon.warnAfter().toSeconds(),
                    h.getData().toString());
            assertEquals((long) pid, ((Number) h.getData().orElseThrow().get("horizon_pid")).longValue(),
                    "the session holding the horizon is named: " + h.getData());
            assertTrue(meters.get("steadfast.database.vacuum.horizon.seconds").gauge().value()
                    > horizon.warnAfter().toSeconds());
            assertTrue(meters.get("steadfast.database.oldest.transaction.seconds").gauge().value() > 0);

            VacuumHorizon.Reading now = horizon.runOnce(clock.instant().plusSeconds(1)).await()
                    .atMost(Duration.ofSeconds(10));
            assertTrue(now.horizonSeconds() > 0, "open now, just not for long: " + now);
            assertNull(now.warning(horizon.warnAfter()), now.toString());
            idle.commit();
        }
        VacuumHorizon.Reading after = horizon.runOnce(clock.instant().plus(horizon.warnAfter()).plusSeconds(60))
                .await().atMost(Duration.ofSeconds(10));
        assertTrue(after.raw().holderPid() == null || after.raw().holderPid() != pid, after.toString());
    }
}
