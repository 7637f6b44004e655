package dev.steadfast.cron;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JsonPaths;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Firing, run directly with instants after the registration (no waiting for the clock): each occurrence is
 * enqueued exactly once, also when several callers (as several instances would) fire at the same moment; the
 * overlap policy and missed occurrences follow docs/concepts/cron-delays-expiry.md.
 */
@QuarkusTest
class CronFiringTest {

    @Inject
    TestClock clock;

    @Inject
    CronFirer firer;

    @Inject
    Pool pool;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static void register(String name, String cron, String queue, String overlap) {
        send(obj("name", name, "cron", cron, "overlap_policy", overlap, "type", "cron.t", "args", arr(name),
                "options", obj("queue", queue))).post("/ojs/v1/cron").then().statusCode(201);
    }

    static Instant nextRun(String name) {
        return Instant.parse(path(request().get("/ojs/v1/cron/" + name), "cron.next_run_at"));
    }

    List<Row> jobsIn(String queue) {
        List<Row> out = new ArrayList<>();
        pool.preparedQuery("SELECT id, state, meta::text AS meta, visibility_timeout_ms FROM all_jobs WHERE queue = $1"
                + " ORDER BY id").execute(Tuple.of(queue)).await().indefinitely().forEach(out::add);
        return out;
    }

    @Test
    void anOccurrenceEnqueuesOneJobCarryingTheCronNameAndFiringAgainAtTheSameInstantDoesNothing() {
        register("every-minute", "* * * * *", "cron-a", "allow");
        Instant due = nextRun("every-minute");
        Instant now = due.plusMillis(300);
        firer.runOnce(now).await().indefinitely();
        firer.runOnce(now).await().indefinitely();
        List<Row> jobs = jobsIn("cron-a");
        assertEquals(1, jobs.size());
        assertEquals("available", jobs.get(0).getString("state"));
        assertTrue(jobs.get(0).getString("meta").contains("\"cron_name\": \"every-minute\""));
        assertTrue(jobs.get(0).getString("meta").contains("\"cron_triggered_at\": \"" + due.toString().replace("Z", ".000Z")));
        assertEquals(600_000L, jobs.get(0).getLong("visibility_timeout_ms"), "steadfast.cron.default-visibility-timeout");
        Map<String, Object> c = path(request().get("/ojs/v1/cron/every-minute"), "cron");
        assertEquals(1, c.get("run_count"));
        assertEquals(due.plusSeconds(60), Instant.parse((String) c.get("next_run_at")));
        assertEquals(jobs.get(0).getUUID("id").toString(), c.get("last_job_id"));
        firer.runOnce(due.minusSeconds(1)).await().indefinitely();
        assertEquals(1, jobsIn("cron-a").size(), "nothing before the next occurrence");
    }

    @Test
    void concurrentFiringFromManyCallersEnqueuesEachOccurrenceExactlyOnce() throws Exception {
        // Yearly, so the server's own scheduled firer (real clock) never reaches these occurrences during the test.
        for (int i = 0; i < 20; i++) {
            register("s" + i, "0 0 1 1 *", "cron-race", "allow");
        }
        Instant first = nextRun("s0");
        ExecutorService pool8 = Executors.newFixedThreadPool(8);
        try {
            for (int minute = 0; minute < 3; minute++) {
                Instant now = first.atZone(java.time.ZoneOffset.UTC).plusYears(minute).toInstant().plusMillis(10);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Integer>> calls = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    calls.add(pool8.submit(() -> {
                        go.await();
                        return firer.runOnce(now).await().indefinitely();
                    }));
                }
                go.countDown();
                int acted = 0;
                for (Future<Integer> f : calls) {
                    acted += f.get();
                }
                assertEquals(20, acted, "every schedule acted on once in minute " + minute);
            }
        } finally {
            pool8.shutdownNow();
        }
        assertEquals(60, jobsIn("cron-race").size(), "20 schedules x 3 occurrences, none twice");
        Row dup = pool.query("SELECT count(*) AS n FROM (SELECT meta->>'cron_name', meta->>'cron_triggered_at'"
                + " FROM all_jobs GROUP BY 1, 2 HAVING count(*) > 1) d").execute().await().indefinitely().iterator().next();
        assertEquals(0L, dup.getLong("n"));
    }

    @Test
    void skipLeavesOutAnOccurrenceWhileThePreviousRunIsUnfinished() {
        register("slow", "* * * * *", "cron-skip", "skip");
        // Due a moment ago, so the run it enqueues is claimable by a real-time FETCH.
        Instant due = clock.instant().minusSeconds(1).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        pool.preparedQuery("UPDATE cron_jobs SET next_fire_at = $1 WHERE name = 'slow'")
                .execute(Tuple.of(due.atOffset(java.time.ZoneOffset.UTC))).await().indefinitely();
        firer.runOnce(clock.instant()).await().indefinitely();
        assertEquals(1, Api.fetchIds("w", 1, "cron-skip").size());
        due = nextRun("slow");
        firer.runOnce(due).await().indefinitely();
        assertEquals(1, jobsIn("cron-skip").size(), "skipped while active");
        Map<String, Object> c = path(request().get("/ojs/v1/cron/slow"), "cron");
        assertEquals("skipped", ((Map<?, ?>) c.get("last_occurrence")).get("outcome"));
        assertEquals("overlap: the previous run is still active", ((Map<?, ?>) c.get("last_occurrence")).get("reason"));
        assertEquals(1, c.get("run_count"));
        Api.ack(jobsIn("cron-skip").get(0).getUUID("id").toString()).then().statusCode(200);
        firer.runOnce(due.plusSeconds(120)).await().indefinitely();
        assertEquals(2, jobsIn("cron-skip").size(), "fires again once the previous run finished");
    }

    @Test
    void cancelPreviousCancelsTheUnfinishedRun() {
        register("latest", "* * * * *", "cron-cancel", "cancel_previous");
        Instant due = nextRun("latest");
        firer.runOnce(due).await().indefinitely();
        firer.runOnce(due.plusSeconds(60)).await().indefinitely();
        List<Row> jobs = jobsIn("cron-cancel");
        assertEquals(List.of("cancelled", "available"), jobs.stream().map(r -> r.getString("state")).toList());
    }

    @Test
    void enqueueQueuesOccurrencesBehindAnUnfinishedRunAndRunsThemOneAtATimeInOrder() {
        send(obj("name", "serial", "cron", "* * * * *", "overlap_policy", "enqueue", "type", "cron.t", "args",
                arr("serial"), "options", obj("queue", "cron-enq", "retry", Api.fixedRetry(3, "PT4M"))))
                .post("/ojs/v1/cron").then().statusCode(201);
        // Due a moment ago, so the first run is claimable by a real-time FETCH.
        Instant first = clock.instant().minusSeconds(1).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        pool.preparedQuery("UPDATE cron_jobs SET next_fire_at = $1 WHERE name = 'serial'")
                .execute(Tuple.of(first.atOffset(java.time.ZoneOffset.UTC))).await().indefinitely();
        firer.runOnce(clock.instant()).await().indefinitely();
        List<String> running = Api.fetchIds("w", 5, "cron-enq");
        assertEquals(1, running.size());

        Instant due = nextRun("serial");
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(
                dev.steadfast.cron.CronService.class.getName());
        log.addHandler(capture);
        try {
            for (int i = 0; i < 3; i++) {
                firer.runOnce(due.plusSeconds(60L * i)).await().indefinitely();
                assertEquals(i < 2 ? 0 : 1, warnings.size(), "a warning once more than 2 are queued: " + warnings);
            }
        } finally {
            log.removeHandler(capture);
        }
        assertTrue(warnings.get(0).contains("'serial'") && warnings.get(0).contains("3 occurrences queued"),
                warnings.get(0));
        List<Row> jobs = jobsIn("cron-enq");
        assertEquals(List.of("active", "pending", "pending", "pending"), jobs.stream().map(r -> r.getString("state"))
                .toList(), "every occurrence enqueued, the later ones held while the first runs");
        Map<String, Object> c = path(request().get("/ojs/v1/cron/serial"), "cron");
        assertEquals(3, c.get("queued_occurrences"));
        assertEquals(4, c.get("run_count"), "a held occurrence is a run");
        assertEquals("enqueued", ((Map<?, ?>) c.get("last_occurrence")).get("outcome"));
        assertEquals(List.of(), Api.fetchIds("w", 5, "cron-enq"), "never two runs at once");

        Api.ack(running.get(0)).then().statusCode(200);
        firer.runOnce(clock.instant()).await().indefinitely();
        firer.runOnce(clock.instant()).await().indefinitely();
        List<String> second = Api.fetchIds("w", 5, "cron-enq");
        assertEquals(List.of(jobs.get(1).getUUID("id").toString()), second,
                "the earliest held occurrence, and only it, once the run before it finished");
        assertEquals(2, JsonPaths.<Integer>path(request().get("/ojs/v1/cron/serial"), "cron.queued_occurrences"));
        firer.runOnce(clock.instant()).await().indefinitely();
        assertEquals(List.of(), Api.fetchIds("w", 5, "cron-enq"), "the third waits for the second");

        Api.nack(second.get(0), Api.error("handler_error", "boom")).then().statusCode(200);
        assertEquals("retryable", Api.state(second.get(0)));
        firer.runOnce(clock.instant()).await().indefinitely();
        assertEquals(List.of(), Api.fetchIds("w", 5, "cron-enq"), "a run waiting for its retry has not finished");
        Api.cancel(second.get(0)).then().statusCode(200);
        firer.runOnce(clock.instant()).await().indefinitely();
        List<String> third = Api.fetchIds("w", 5, "cron-enq");
        assertEquals(List.of(jobs.get(2).getUUID("id").toString()), third, "a cancelled run has finished too");

        request().delete("/ojs/v1/cron/serial").then().statusCode(200);
        assertEquals("available", Api.state(jobs.get(3).getUUID("id").toString()),
                "unregistering releases what it held: nothing would later");
    }

    @Test
    void afterDowntimeOneCatchUpRunThenTheScheduleResumesInTheFuture() {
        register("hourly", "0 * * * *", "cron-missed", "allow");
        Instant due = nextRun("hourly");
        Instant later = due.plus(Duration.ofHours(5)).plusSeconds(30);
        firer.runOnce(later).await().indefinitely();
        firer.runOnce(later.plusSeconds(1)).await().indefinitely();
        assertEquals(1, jobsIn("cron-missed").size(), "one catch-up run, not five");
        assertEquals(due.plus(Duration.ofHours(6)), nextRun("hourly"));
    }

    @Test
    void aPausedScheduleDoesNotFire() {
        register("paused", "* * * * *", "cron-paused", "allow");
        Instant due = nextRun("paused");
        request().post("/ojs/v1/cron/paused/pause").then().statusCode(200);
        firer.runOnce(due.plusSeconds(600)).await().indefinitely();
        assertEquals(0, jobsIn("cron-paused").size());
    }
}
