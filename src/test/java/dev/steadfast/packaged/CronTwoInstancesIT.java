package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cron with two real server processes on one database: the packaged application Quarkus launched, and a second
 * copy of the same jar started here. Both tick every second; every occurrence is enqueued exactly once, on time
 * (yearly schedules, each occurrence made due by setting {@code next_fire_at}: the test waits for no calendar).
 * The waits below poll for an outcome with a generous deadline; nothing asserts how long anything took except
 * the lateness of an occurrence, which is the feature under test.
 */
@QuarkusIntegrationTest
@TestProfile(PackagedApp.class)
class CronTwoInstancesIT {

    static final int SCHEDULES = 10;
    static SecondInstance second;
    static Map<String, String> db;

    @BeforeAll
    static void startSecondInstance() throws Exception {
        PackagedApp.authorize();
        second = SecondInstance.shared();
        db = second.db;
    }

    @Test
    void everyOccurrenceIsEnqueuedOnceAndOnTimeWithTwoInstancesTicking() throws Exception {
        String tag = Long.toString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE, 36);
        String queue = "it-cron-" + tag;
        for (int i = 0; i < SCHEDULES; i++) {
            send(obj("name", "it-" + tag + "-" + i, "cron", "0 0 1 1 *", "overlap_policy", "allow",
                    "type", "it.cron", "args", arr(i), "options", obj("queue", queue)))
                    .post("/ojs/v1/cron").then().statusCode(201);
        }
        try (Connection c = DriverManager.getConnection(db.get("quarkus.datasource.jdbc.url"),
                db.get("quarkus.datasource.username"), db.get("quarkus.datasource.password"))) {
            // Yearly schedules (the next 1 January, UTC), so no occurrence comes from the calendar while the test
            // runs: each round below makes one due on every schedule (waiting for a minute to turn cost up to 60 s).
            assertEquals(0, count(c, "SELECT count(*) FROM cron_jobs WHERE name LIKE 'it-" + tag + "-%' AND"
                    + " next_fire_at IS DISTINCT FROM (date_trunc('year', created_at AT TIME ZONE 'UTC')"
                    + " + interval '1 year') AT TIME ZONE 'UTC'"));
            // Five occurrences, made due at once on every schedule (both instances see them in the same second).
            for (int round = 1; round <= 5; round++) {
                exec(c, "UPDATE cron_jobs SET next_fire_at = now() - interval '1 millisecond' WHERE name LIKE 'it-"
                        + tag + "-%'");
                awaitRuns(c, tag, SCHEDULES * round, Duration.ofSeconds(30));
            }
            Thread.sleep(2_000); // two more ticks of each instance: nothing else may appear
            assertEquals(SCHEDULES * 5, count(c, "SELECT count(*) FROM cron_runs WHERE cron_name LIKE 'it-" + tag
                    + "-%'"));
            assertEquals(SCHEDULES * 5, count(c, "SELECT count(*) FROM all_jobs WHERE queue = '" + queue + "'"),
                    "one job per occurrence");
            assertEquals(0, count(c, "SELECT count(*) FROM (SELECT meta->>'cron_name', meta->>'cron_triggered_at'"
                    + " FROM all_jobs WHERE queue = '" + queue + "' GROUP BY 1, 2 HAVING count(*) > 1) d"), "no duplicates");
            long late = count(c, "SELECT count(*) FROM cron_runs r JOIN jobs j ON j.id = r.job_id WHERE r.cron_name"
                    + " LIKE 'it-" + tag + "-%' AND j.created_at - r.fire_at > interval '3 seconds'");
            assertEquals(0, late, "every occurrence enqueued within a tick or two of its time");
        }
        long first = enqueuedBy(io.restassured.RestAssured.port, queue);
        long other = enqueuedBy(second.port, queue);
        assertEquals(SCHEDULES * 5, first + other, "the two instances' own counts add up (first " + first
                + ", second " + other + ")");
        System.out.printf("cron occurrences enqueued by the first instance: %d, by the second: %d%n", first, other);
    }

    static void awaitRuns(Connection c, String tag, long n, Duration limit) throws Exception {
        Instant deadline = Instant.now().plus(limit);
        while (count(c, "SELECT count(*) FROM cron_runs WHERE cron_name LIKE 'it-" + tag + "-%'") < n) {
            assertTrue(Instant.now().isBefore(deadline), "waiting for " + n + " occurrences");
            Thread.sleep(200);
        }
    }

    static long count(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    static void exec(Connection c, String sql) throws Exception {
        try (Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        }
    }

    /** This instance's steadfast_jobs_enqueued_total for the queue (each instance counts what it enqueued). */
    static long enqueuedBy(int port, String queue) throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/q/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("steadfast_jobs_enqueued_total\\{[^}]*queue=\"" + Pattern.quote(queue)
                + "\"[^}]*} ([0-9.E]+)").matcher(metrics);
        double total = 0;
        while (m.find()) {
            total += Double.parseDouble(m.group(1));
        }
        return (long) total;
    }

}
