package dev.steadfast.budget;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.fixedRetry;
import static dev.steadfast.testsupport.Api.json;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.CountedPostgres;
import dev.steadfast.testsupport.CountingProxy;
import dev.steadfast.testsupport.TestClock;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hot path's cost budget: fixed small workloads run through the HTTP API, one request at a time, and what they
 * ask of PostgreSQL is counted on the wire ({@link CountingProxy}) against {@code cost-budget.properties}:
 * statements, commits and parses per job, round trips per request, and WAL bytes per job (the cluster's WAL position
 * before and after, read on a connection of the test's own). Counts, not times: one request at a time, so no
 * coalescing depends on machine speed, with the scheduled tasks paused and the server's clock stopped
 * ({@link TestClock#freeze}; not in W4, whose 1 ms backoffs must pass: its retries' due-time timers would fire against
 * a stopped clock again and again), so only the requests' own work is counted and what the server redoes once a
 * second of its clock (the snapshots FETCH rereads) does not depend on how fast the machine is (work on real-time timers costs per second, not per job: see {@link Counted}; the presence
 * check every two seconds is left in, a statement or two per workload). Each workload runs once to warm up (every statement prepared, the pages it
 * touches written once after a CHECKPOINT, so no full-page image lands in the measured part) and once measured.
 *
 * <p>Every figure is a ceiling: a change that adds work to the hot path fails here until the budget file is raised
 * in the same commit, with the reason. The measured figures are printed, for the budget and for
 * docs/performance/cost-budget.md.
 */
@QuarkusTest
@TestProfile(CostBudgetTest.Counted.class)
class CostBudgetTest {

    /** The server's connections through the counting proxy (its own Quarkus start: one test profile). */
    public static class Counted implements QuarkusTestProfile {
        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        /**
         * What runs on timers costs per second, not per job, and would make the counts depend on how fast the
         * requests come: FETCH's own reaping of expired leases and jobs (every 0.1 s by default; here once, at
         * the first FETCH), the lease-end timers (a reap in its own transaction when a 100 ms bucket of leases ends,
         * found empty when the jobs were acknowledged: leases of an hour here, past the timers' 10-minute horizon)
         * and the events' NOTIFY (once a second on a lone instance) are left out.
         */
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("steadfast.fetch.reap-interval", "PT1H", "steadfast.events.share", "false",
                    "steadfast.jobs.default-visibility-timeout", "PT1H");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(CountedPostgres.class));
        }
    }

    static final int JOBS = 200;

    @Inject
    Scheduler scheduler;

    @Inject
    TestClock clock;

    @TestHTTPResource("/")
    URL base;

    /**
     * One keep-alive connection, as a worker holds (RestAssured opens one per request: 30-40 ms a request here, which
     * made the once-a-second rereads beside the requests a tenth of a statement per job).
     */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeEach
    void pauseScheduledTasks() {
        scheduler.pause();
    }

    @AfterEach
    void resumeScheduledTasks() {
        scheduler.resume();
    }

    @Test
    void w2OneAckPerJob() throws Exception {
        check("w2", q -> {
            pushBulk(q, JOBS, null);
            return () -> drain(q, 10, false);
        });
    }

    @Test
    void w2BatchAck() throws Exception {
        check("w2-batch", q -> {
            pushBulk(q, JOBS, null);
            return () -> drain(q, 20, true);
        });
    }

    @Test
    void w4FailOnceThenSucceed() throws Exception {
        check("w4", q -> {
            pushBulk(q, JOBS, fixedRetry(3, "PT0.001S"));
            return () -> {
                int requests = 0;
                int finished = 0;
                while (finished < JOBS) {
                    JsonNode jobs = fetch(q, 10);
                    requests++;
                    for (JsonNode j : jobs) {
                        String id = j.get("id").asText();
                        if (j.get("attempt").asInt() == 1) {
                            post("/ojs/v1/workers/nack", obj("job_id", id, "worker_id", "budget", "error",
                                    obj("type", "Flaky", "message", "first attempt fails")), 200);
                        } else {
                            ack(id);
                            finished++;
                        }
                        requests++;
                    }
                }
                return requests;
            };
        });
    }

    /**
     * A late answer: every job ACKed, then ACKed again (409, the job is completed). The refusal is explained by the
     * completing statement itself, from the job as it saw it: no read of its own.
     */
    @Test
    void refusedAck() throws Exception {
        check("refused-ack", q -> {
            pushBulk(q, JOBS, null);
            return () -> {
                int requests = 0;
                while (true) {
                    JsonNode jobs = fetch(q, 10);
                    requests++;
                    if (jobs.isEmpty()) {
                        return requests;
                    }
                    for (JsonNode j : jobs) {
                        ack(j.get("id").asText());
                        JsonNode again = post("/ojs/v1/workers/ack", obj("job_id", j.get("id").asText(),
                                "worker_id", "budget"), 409);
                        assertEquals("completed", again.at("/error/details/current_state").asText(), again::toString);
                        requests += 2;
                    }
                }
            };
        });
    }

    @Test
    void w1Bulk() throws Exception {
        check("w1-bulk", q -> () -> {
            for (int i = 0; i < 10; i++) {
                pushBulk(q, JOBS / 10, null);
            }
            return 10;
        });
    }

    @Test
    void workflowSteps() throws Exception {
        check("workflow-step", q -> {
            for (int i = 0; i < JOBS / 2; i++) {
                post("/ojs/v1/workflows", obj("type", "chain", "name", "budget", "steps", arr(step(q, 1), step(q, 2))),
                        201);
            }
            return () -> drain(q, 10, false);
        });
    }

    // ---- the workloads' requests

    private static Map<String, Object> step(String queue, int n) {
        return obj("type", "budget.step" + n, "args", arr(n), "options", obj("queue", queue));
    }

    private void pushBulk(String queue, int n, Map<String, Object> retry) throws Exception {
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> options = retry == null ? obj("queue", queue) : obj("queue", queue, "retry", retry);
            jobs.add(obj("type", "budget.noop", "args", arr(i), "options", options));
        }
        post("/ojs/v1/jobs/batch", obj("jobs", jobs), 201);
    }

    private JsonNode fetch(String queue, int count) throws Exception {
        return post("/ojs/v1/workers/fetch", obj("queues", arr(queue), "count", count, "worker_id", "budget"), 200)
                .get("jobs");
    }

    private void ack(String id) throws Exception {
        post("/ojs/v1/workers/ack", obj("job_id", id, "worker_id", "budget", "result", obj("ok", true)), 200);
    }

    /** Fetches {@code count} at a time and acknowledges each job (or each fetch in one batch ACK) until empty. */
    private int drain(String queue, int count, boolean batch) throws Exception {
        int requests = 0;
        while (true) {
            JsonNode jobs = fetch(queue, count);
            requests++;
            if (jobs.isEmpty()) {
                return requests;
            }
            if (batch) {
                List<Object> acks = new ArrayList<>();
                jobs.forEach(j -> acks.add(obj("job_id", j.get("id").asText(), "result", obj("ok", true))));
                post("/ojs/v1/workers/ack/batch", obj("worker_id", "budget", "acks", acks), 200);
                requests++;
            } else {
                for (JsonNode j : jobs) {
                    ack(j.get("id").asText());
                    requests++;
                }
            }
        }
    }

    /** POSTs {@code body} as JSON and insists on {@code status}; answers the parsed body. */
    private JsonNode post(String path, Object body, int status) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json(body)))
                .build();
        HttpResponse<String> answer = HTTP.send(r, HttpResponse.BodyHandlers.ofString());
        assertEquals(status, answer.statusCode(), () -> "POST " + path + " answered " + answer.body());
        return JSON.readTree(answer.body());
    }

    // ---- measuring

    /** A workload: prepares (not counted) and answers the part that is counted, which answers its request count. */
    interface Workload {
        Measured prepare(String queue) throws Exception;
    }

    interface Measured {
        int run() throws Exception;
    }

    private void check(String name, Workload workload) throws Exception {
        // what earlier test classes left in the shared database (a webhook subscription, a limit) is not this cost
        post("/ojs/v1/admin/reset", obj(), 200);
        sql("ALTER SYSTEM SET autovacuum = off", "SELECT pg_reload_conf()");
        try {
            awaitNoAutovacuum();
            checkpoint();
            measure(name, workload);
        } finally {
            sql("ALTER SYSTEM RESET autovacuum", "SELECT pg_reload_conf()");
        }
    }

    private void measure(String name, Workload workload) throws Exception {
        workload.prepare("budget-" + name + "-warm-" + System.nanoTime()).run();
        Measured measured = workload.prepare("budget-" + name + "-" + System.nanoTime());
        if (!name.equals("w4")) {
            clock.freeze();
            // What FETCH rereads once a second of the clock (the limited queues, the tenants, the worker's record),
            // reread now, at the frozen instant, outside the count: otherwise whether the warm-up's last reads are
            // a second old when the clock stops depends on how long the pushes and the quiet wait took.
            post("/ojs/v1/workers/fetch", obj("queues", arr("budget-prime"), "count", 1, "worker_id", "budget"), 200);
        }
        quiet();
        long[] before = snapshot();
        Map<String, Long> statementsBefore = statements();
        long walBefore = walPosition();
        int requests = measured.run();
        long walAfter = walPosition();
        quiet();
        long[] after = snapshot();
        clock.reset();
        String breakdown = breakdown(statementsBefore, statements());
        double jobs = JOBS;
        Map<String, Double> figures = new LinkedHashMap<>();
        figures.put("statements_per_job", (diff(before, after, CountingProxy.EXECUTES)
                + diff(before, after, CountingProxy.SIMPLE_QUERIES)) / jobs);
        figures.put("commits_per_job", diff(before, after, CountingProxy.COMMITS) / jobs);
        figures.put("parses_per_job", diff(before, after, CountingProxy.PARSES) / jobs);
        figures.put("round_trips_per_request", diff(before, after, CountingProxy.ROUND_TRIPS) / (double) requests);
        figures.put("wal_bytes_per_job", (walAfter - walBefore) / jobs);
        StringBuilder report = new StringBuilder("cost budget " + name + " (" + JOBS + " jobs, " + requests
                + " requests):");
        figures.forEach((k, v) -> report.append(String.format(" %s=%.3f", k, v)));
        System.out.println(report + breakdown);

        Properties budget = budget();
        List<String> over = new ArrayList<>();
        for (var e : figures.entrySet()) {
            String key = name + "." + e.getKey();
            String limit = budget.getProperty(key);
            assertTrue(limit != null, "cost-budget.properties has no " + key + " (measured " + e.getValue() + ")");
            if (e.getValue() > Double.parseDouble(limit)) {
                over.add(String.format("%s: %.3f > %s", key, e.getValue(), limit));
            }
        }
        assertEquals(List.of(), over, "over the budget (" + report + "); a change that adds work to the hot path"
                + " raises src/test/resources/cost-budget.properties in the same commit and says why" + breakdown);
    }

    /** Each statement's executions by its SQL, so far. */
    private static Map<String, Long> statements() {
        Map<String, Long> out = new HashMap<>();
        for (String line : CountingProxy.statements()) {
            int tab = line.indexOf('\t');
            out.put(line.substring(tab + 1), Long.parseLong(line.substring(0, tab)));
        }
        return out;
    }

    /** The statements the measured part executed, most executed first: what a change added is named here. */
    private static String breakdown(Map<String, Long> before, Map<String, Long> after) {
        StringBuilder b = new StringBuilder();
        after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> b.append(String.format("%n  %5d  %.120s", e.getValue(), e.getKey())));
        return b.toString();
    }

    private static double diff(long[] before, long[] after, int index) {
        return after[index] - before[index];
    }

    private static long[] snapshot() {
        return CountingProxy.counters();
    }

    /** Waits until nothing passed through the proxy for 300 ms: what a request started beside it has ended. */
    private static void quiet() {
        long[][] last = {snapshot()};
        long[] since = {System.nanoTime()};
        Awaitility.await("no database traffic for 300 ms").pollInterval(Duration.ofMillis(50))
                .atMost(Duration.ofSeconds(20)).until(() -> {
                    long[] now = snapshot();
                    if (!java.util.Arrays.equals(now, last[0])) {
                        last[0] = now;
                        since[0] = System.nanoTime();
                        return false;
                    }
                    return System.nanoTime() - since[0] > 300_000_000L;
                });
    }

    private static Connection direct() throws SQLException {
        return DriverManager.getConnection(System.getProperty(CountedPostgres.DIRECT_JDBC_URL), "steadfast",
                "steadfast");
    }

    private static long walPosition() throws SQLException {
        try (Connection c = direct(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * The WAL counted is the cluster's: autovacuum is switched off around each workload (and one already running is
     * waited for), so what it writes, whenever it happens to run, does not land in the count. The test cluster runs
     * nothing else meanwhile.
     */
    private static void awaitNoAutovacuum() {
        Awaitility.await("no autovacuum worker running").pollInterval(Duration.ofMillis(100))
                .atMost(Duration.ofSeconds(60)).until(() -> {
                    try (Connection c = direct(); Statement s = c.createStatement();
                         ResultSet r = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                                 + " WHERE backend_type = 'autovacuum worker'")) {
                        r.next();
                        return r.getLong(1) == 0;
                    }
                });
    }

    /** A CHECKPOINT before the warm-up: the pages the workload touches get their full-page images there. */
    private static void checkpoint() throws SQLException {
        sql("CHECKPOINT");
    }

    private static void sql(String... statements) throws SQLException {
        try (Connection c = direct(); Statement s = c.createStatement()) {
            for (String one : statements) {
                s.execute(one);
            }
        }
    }

    private static Properties budget() throws IOException {
        Properties p = new Properties();
        try (InputStream in = CostBudgetTest.class.getResourceAsStream("/cost-budget.properties")) {
            p.load(in);
        }
        return p;
    }
}
