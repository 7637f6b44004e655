package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.vertx.pgclient.PgConnectOptions;
import dev.steadfast.testsupport.DatasourceSettings;
import jakarta.inject.Inject;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * With {@code target-session-attrs=read-write} a new connection goes to the host that accepts writes, whatever the
 * order of the list, past a host that is down; with {@code any} the hosts take turns. A standby is stood in for by
 * the test cluster with {@code default_transaction_read_only=on} as a startup parameter (its sessions refuse writes,
 * as a hot standby's do), a host that is down by a closed port.
 */
@QuarkusTest
class PrimaryHostsTest {

    @Inject
    SessionConnections sessions;

    @Inject
    DatasourceSettings db;

    private PgConnectOptions primary() {
        return db.connectOptions();
    }

    private PgConnectOptions standby() {
        PgConnectOptions o = primary();
        o.addProperty("default_transaction_read_only", "on");
        return o;
    }

    private PgConnectOptions down() throws Exception {
        PgConnectOptions o = primary();
        try (ServerSocket s = new ServerSocket(0)) {
            o.setPort(s.getLocalPort()); // free once closed: nothing listens there
        }
        return o;
    }

    private PrimaryHosts hosts(TargetSessionAttrs target) {
        return new PrimaryHosts(new DatabaseConfig() {
            @Override
            public Optional<String> sessionUrl() {
                return Optional.empty();
            }

            @Override
            public TargetSessionAttrs targetSessionAttrs() {
                return target;
            }
        }, sessions);
    }

    private PgConnectOptions chosen(PrimaryHosts hosts, List<PgConnectOptions> list) throws Exception {
        return hosts.choose(list).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @Test
    void readWriteFindsThePrimaryPastAStandbyAndAHostThatIsDown() throws Exception {
        PgConnectOptions standby = standby(), down = down(), primary = primary();
        PrimaryHosts hosts = hosts(TargetSessionAttrs.READ_WRITE);
        assertSame(primary, chosen(hosts, List.of(standby, down, primary)));
        assertSame(primary, chosen(hosts, List.of(down, primary, standby)));
        assertTrue(hosts.follows(List.of(standby, primary)));
    }

    @Test
    void readWriteWithoutAPrimaryFailsAsAnOutage() throws Exception {
        PrimaryHosts hosts = hosts(TargetSessionAttrs.READ_WRITE);
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> chosen(hosts, List.of(standby(), down())));
        assertTrue(e.getCause() instanceof ConnectException, e.toString());
        assertTrue(DatabaseFaults.isTransient(e), "answered 503 like any outage");
    }

    @Test
    void anyTakesTheHostsInTurnAndSessionsTheFirst() throws Exception {
        PgConnectOptions a = standby(), b = primary();
        PrimaryHosts hosts = hosts(TargetSessionAttrs.ANY);
        PgConnectOptions first = chosen(hosts, List.of(a, b));
        PgConnectOptions second = chosen(hosts, List.of(a, b));
        assertEquals(2, java.util.Set.of(first, second).size(), "both hosts in turn");
        assertSame(a, hosts.forSession(List.of(a, b)).toCompletionStage().toCompletableFuture().get());
        assertEquals(false, hosts.follows(List.of(a, b)));
    }
}
