package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.DatasourceSettings;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import jakarta.inject.Inject;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The connections outside the pool come back by themselves: the listening connection and the presence connection,
 * each cut by PostgreSQL ({@code pg_terminate_backend}, as a database restart or an idle-session killer would),
 * are opened again, LISTEN again (so notifications arrive again) and hold the presence lock again; and connects that
 * fail (nothing listening) leave the factory they share working. That no main code opens such a connection another
 * way is {@code ArchitectureTest#sessionConnectionsComeFromOneFactory}.
 */
@QuarkusTest
class SessionConnectionsTest {

    @Inject
    SessionConnections sessions;

    @Inject
    JobNotifications notifications;

    @Inject
    InstancePresence presence;

    @Inject
    DatasourceSettings db;

    @Inject
    Pool pool;

    /** The backends of this database whose last statement starts with {@code prefix}, other than this query's. */
    private List<Integer> backends(String prefix) {
        List<Integer> pids = new ArrayList<>();
        for (Row r : pool.query("SELECT pid, query FROM pg_stat_activity WHERE datname = current_database()"
                + " AND pid <> pg_backend_pid()").execute().await().atMost(Duration.ofSeconds(10))) {
            if (r.getString("query").startsWith(prefix)) {
                pids.add(r.getInteger("pid"));
            }
        }
        return pids;
    }

    private void terminate(List<Integer> pids) {
        for (int pid : pids) {
            pool.query("SELECT pg_terminate_backend(" + pid + ")").execute().await().atMost(Duration.ofSeconds(10));
        }
    }

    private static void await(String what, BooleanSupplier done) {
        Awaitility.await(what).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .until(done::getAsBoolean);
    }

    private void notify(String payload) {
        pool.query("NOTIFY " + JobNotifications.CHANNEL + ", '" + payload + "'").execute()
                .await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void theListeningConnectionListensAgainAfterPostgresqlCutIt() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        AtomicInteger listens = new AtomicInteger();
        notifications.start(heard::add, listens::incrementAndGet);
        await("the test's channel listening", () -> listens.get() == 1);
        notify("before-cut-queue");
        await("a notification before the cut", () -> heard.contains("before-cut-queue"));

        List<Integer> before = backends("LISTEN ");
        assertFalse(before.isEmpty(), "a listening connection");
        terminate(before);
        await("LISTEN again after the cut", () -> listens.get() == 2);
        List<Integer> after = backends("LISTEN ");
        assertFalse(after.isEmpty());
        after.forEach(pid -> assertFalse(before.contains(pid), "a new backend: " + before + " " + after));
        notify("after-cut-queue");
        await("a notification after the cut", () -> heard.contains("after-cut-queue"));
    }

    @Test
    void thePresenceLockIsHeldAgainAfterPostgresqlCutItsConnection() throws Exception {
        List<Long> keys = presence.present().await().atMost(Duration.ofSeconds(10));
        List<Integer> before = backends(InstancePresence.HOLD);
        assertEquals(1, before.size(), "this application's presence connection");
        terminate(before);
        await("the presence connection back", () -> {
            List<Integer> now = backends(InstancePresence.HOLD);
            return now.size() == 1 && !now.equals(before);
        });
        await("the same keys present again",
                () -> presence.present().await().atMost(Duration.ofSeconds(10)).equals(keys));
    }

    @Test
    void connectsThatFailLeaveTheNextOneWorking() throws Exception {
        PgConnectOptions down = db.connectOptions();
        try (ServerSocket s = new ServerSocket(0)) {
            down.setPort(s.getLocalPort()); // free once closed: nothing listens there
        }
        for (int i = 0; i < 3; i++) {
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> sessions.connect(down).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof java.net.ConnectException, refused.getCause().toString());
        }
        PgConnection c = sessions.connect(db.connectOptions()).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        try {
            int pid = c.query("SELECT pg_backend_pid()").execute().toCompletionStage().toCompletableFuture()
                    .get(10, TimeUnit.SECONDS).iterator().next().getInteger(0);
            assertNotEquals(0, pid);
        } finally {
            c.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }
}
