package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Which failures are a passing database fault (503, retryable) and which are real errors. */
class DatabaseFaultsTest {

    static PgException pg(String state) {
        return new PgException("message for " + state, "FATAL", state, null);
    }

    @Test
    void restartsLostConnectionsPoolExhaustionAndTimeoutsAreTransient() {
        for (String state : new String[] {"57P01", "57P02", "57P03", "08006", "08001", "08P01", "57014", "53300",
                "40001", "40P01"}) {
            assertTrue(DatabaseFaults.isTransient(pg(state)), state);
            assertTrue(DatabaseFaults.isTransient(new CompletionException(pg(state))), "wrapped " + state);
        }
        assertTrue(DatabaseFaults.isTransient(new SocketException("Connection reset")));
        assertTrue(DatabaseFaults.isTransient(new ConnectException("Connection refused")));
        assertTrue(DatabaseFaults.isTransient(ClosedConnectionException.INSTANCE));
        assertTrue(DatabaseFaults.isTransient(new VertxException("Connection is closed")));
        assertTrue(DatabaseFaults.isTransient(new VertxException("Timeout waiting for connection")));
        assertTrue(DatabaseFaults.isTransient(new java.io.IOException("Connection reset by peer")));
        assertTrue(DatabaseFaults.isTransient(new CompletionException(
                new io.vertx.core.impl.NoStackTraceThrowable("Connection is not active now, current status: CLOSED"))));
    }

    @Test
    void badDataAndBugsAreNot() {
        for (String state : new String[] {"22P05", "22021", "23505", "42601", "22003", "XX000"}) {
            assertFalse(DatabaseFaults.isTransient(pg(state)), state);
        }
        assertFalse(DatabaseFaults.isTransient(new NullPointerException()));
        assertFalse(DatabaseFaults.isTransient(new VertxException("something else")));
        assertFalse(DatabaseFaults.isTransient(new IllegalStateException("x", new RuntimeException())));
    }

    @Test
    void theDescriptionIsOneLineWithTheSqlState() {
        assertEquals("PgException: FATAL: message for 57P01 (57P01)",
                DatabaseFaults.describe(new CompletionException(pg("57P01"))));
    }

    @Test
    void onlyThePoolsDoubleFailureIsQuieted() {
        IllegalStateException race = new IllegalStateException("Result is already complete");
        race.setStackTrace(new StackTraceElement[] {
                new StackTraceElement("io.vertx.core.Promise", "fail", "Promise.java", 90),
                new StackTraceElement("io.vertx.sqlclient.impl.pool.SqlConnectionPool", "lambda$execute$3", "x", 216)});
        assertTrue(PoolRaceFilter.isPoolRace(race));
        IllegalStateException elsewhere = new IllegalStateException("Result is already complete");
        assertFalse(PoolRaceFilter.isPoolRace(elsewhere));
        assertFalse(PoolRaceFilter.isPoolRace(new IllegalStateException("other")));
    }
}
