package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.FETCH;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetch;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.fixedRetry;
import static dev.steadfast.testsupport.Api.jobView;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.retry.ErrorHistory;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lean hot path: one claim across queues, a FETCH answer without history, long-poll FETCH woken in-process
 * and through LISTEN/NOTIFY, batch ACK/FAIL, leases fenced by time, FAIL guarded by its attempt, and the error
 * history trimmed in SQL exactly as the domain's ErrorHistory does.
 */
@QuarkusTest
class HotPathTest {

    @Inject
    TestClock clock;

    @Inject
    WorkSignal signal;

    @Inject
    io.quarkus.scheduler.Scheduler scheduler;

    @Inject
    Pool pool;

    @Inject
    LeaseReaper reaper;

    @Inject
    dev.steadfast.work.LeaseExpiry expiry;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private static Map<String, Object> job(String queue, Object... options) {
        return obj("type", "hot.test", "queue", queue, "args", arr(1), "options", obj(options));
    }

    @Test
    void oneFetchTakesEarlierQueuesFirstThenLaterOnes() {
        String b1 = enqueue(job("hot-b"));
        String a1 = enqueue(job("hot-a"));
        String a2 = enqueue(job("hot-a", "priority", 5));
        String b2 = enqueue(job("hot-b"));
        assertEquals(List.of(a2, a1, b1), fetchIds("w", 3, "hot-a", "hot-b"));
        assertEquals(List.of(b2), fetchIds("w", 3, "hot-a", "hot-b"));
    }

    @Test
    void theFetchAnswerCarriesNeitherHistoryNorPolicyButInfoDoes() {
        String id = enqueue(job("hot-lean", "retry", fixedRetry(3, "PT0.001S")));
        fetchOne("w", "hot-lean");
        assertEquals(200, send(obj("job_id", id, "error", error("boom", "first"))).post(Api.NACK).statusCode());
        waitUntilDue(id);
        Response r = fetch("w", 1, "hot-lean");
        for (int i = 0; i < 50 && ((List<?>) path(r, "jobs")).isEmpty(); i++) {
            r = fetch("w", 1, "hot-lean");
        }
        Map<String, Object> fetched = path(r, "jobs[0]");
        assertEquals(id, fetched.get("id"));
        assertEquals(2, fetched.get("attempt"));
        assertFalse(fetched.containsKey("errors"), "no history in the FETCH answer");
        assertFalse(fetched.containsKey("retry"), "no stored policy in the FETCH answer");
        Map<String, Object> info = jobView(id);
        assertEquals(1, ((List<?>) info.get("errors")).size());
        assertNotNull(info.get("retry"));
    }

    @Test
    void aLongPollAnswersAsSoonAsAJobIsPushed() throws Exception {
        CompletableFuture<Response> waiting = CompletableFuture.supplyAsync(() ->
                send(obj("queues", arr("hot-poll"), "count", 1, "worker_id", "w", "wait_ms", 20_000)).post(FETCH));
        awaitWaiters(1);
        String id = enqueue(job("hot-poll"));
        Response r = waiting.get(20, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode());
        assertEquals(List.of(id), path(r, "jobs.id"));
    }

    @Test
    void aLongPollIsWokenByAJobAnotherInstanceInserted() throws Exception {
        CompletableFuture<Response> waiting = CompletableFuture.supplyAsync(() ->
                send(obj("queues", arr("hot-remote"), "count", 1, "worker_id", "w", "wait_ms", 20_000)).post(FETCH));
        awaitWaiters(1);
        // Another instance's PUSH: a row written straight into the database, announced only by the insert trigger.
        UUID id = UUID.randomUUID();
        pool.preparedQuery("""
                INSERT INTO jobs (id, type, queue, args, state, max_attempts, retry_policy, timeout_ms,
                                  visibility_timeout_ms, run_at, created_at, enqueued_at)
                VALUES ($1, 'hot.test', 'hot-remote', '[]', 'available', 3, '{}', 60000, 30000, now(), now(), now())""")
                .execute(Tuple.of(id)).await().indefinitely();
        Response r = waiting.get(20, TimeUnit.SECONDS);
        assertEquals(List.of(id.toString()), path(r, "jobs.id"));
    }

    @Test
    void aLongPollAnswersEmptyWhenItsWaitIsOver() {
        Response r = send(obj("queues", arr("hot-empty"), "count", 1, "worker_id", "w", "wait_ms", 50)).post(FETCH);
        assertEquals(200, r.statusCode());
        assertEquals(List.of(), path(r, "jobs"));
        assertError(send(obj("queues", arr("hot-empty"), "wait_ms", -1)).post(FETCH), 400, "invalid_request");
    }

    @Test
    void aBatchAnswersEachAckAndFailOnItsOwn() {
        String a = enqueue(job("hot-batch"));
        String f = enqueue(job("hot-batch", "retry", fixedRetry(3, "PT10S")));
        String gone = UUID.randomUUID().toString();
        assertEquals(2, fetchIds("w", 2, "hot-batch").size());
        Response r = send(obj("worker_id", "w", "acks", arr(
                obj("job_id", a, "result", obj("n", 1)),
                obj("job_id", f, "error", obj("type", "Flaky", "message", "first attempt fails")),
                obj("job_id", gone),
                obj("job_id", a)))).post("/ojs/v1/workers/ack/batch");
        assertEquals(200, r.statusCode(), r::asString);
        List<Map<String, Object>> results = path(r, "results");
        assertEquals(4, results.size());
        assertEquals(true, results.get(0).get("ok"));
        assertEquals("completed", results.get(0).get("state"));
        assertEquals(true, results.get(1).get("ok"));
        assertEquals("retryable", results.get(1).get("state"));
        assertEquals(false, results.get(2).get("ok"));
        assertEquals("not_found", ((Map<?, ?>) results.get(2).get("error")).get("code"));
        assertEquals(false, results.get(3).get("ok"), "a second ack of the same job is refused");
        assertEquals("conflict", ((Map<?, ?>) results.get(3).get("error")).get("code"));
        assertEquals("completed", jobView(a).get("state"));
        assertEquals(Map.of("n", 1), jobView(a).get("result"));
        assertEquals("Flaky", ((Map<?, ?>) jobView(f).get("error")).get("type"));

        assertError(send(obj("acks", arr(obj("job_id", "nope")))).post("/ojs/v1/workers/ack/batch"), 400,
                "invalid_request");
        assertError(send(obj("acks", arr())).post("/ojs/v1/workers/ack/batch"), 400, "invalid_request");
    }

    @Test
    void anAnswerAfterTheLeaseRanOutIsRefusedEvenBeforeTheReaperRuns() {
        // Before the reaper runs, for certain: its scheduled run would otherwise take the lease back first now and then.
        scheduler.pause(dev.steadfast.maintenance.MaintenanceHealth.LEASE_REAPER);
        String id = null;
        try {
            // FETCH takes expired leases back too (at most every steadfast.fetch.reap-interval): a FETCH still waiting
            // from an earlier test may do so between the expiry and the ACK, and then the job is no longer active and
            // the ACK proves nothing about the fence. Such a round is run again, on a queue of its own.
            for (int round = 0; round < 5 && id == null; round++) {
                String queue = "hot-fence-" + round;
                String candidate = enqueue(job(queue));
                fetchOne("w", queue);
                expireLease(candidate);
                Map<String, Object> e = assertError(Api.ack(candidate, "w", null), 409, "conflict");
                if (String.valueOf(e.get("message")).contains("lease ran out")) {
                    id = candidate;
                } else {
                    assertTrue(!"active".equals(Api.state(candidate)), e::toString);
                }
            }
            assertTrue(id != null, "in five rounds, another FETCH always took the expired lease back before the ACK");
            assertError(send(obj("job_id", id, "worker_id", "w", "error", error("x", "late"))).post(Api.NACK), 409,
                    "conflict");
        } finally {
            scheduler.resume(dev.steadfast.maintenance.MaintenanceHealth.LEASE_REAPER);
        }
        // The lease reaper (running in the background) decides the attempt; the late answers changed nothing.
        List<Map<String, Object>> errors = (List<Map<String, Object>>) jobView(id).get("errors");
        assertTrue(errors.stream().noneMatch(x -> "late".equals(x.get("message"))), errors::toString);
        assertTrue(jobView(id).get("result") == null);
    }

    @Test
    void aFailForAnAttemptThatIsOverChangesNothing() {
        String id = enqueue(job("hot-stale", "retry", fixedRetry(3, "PT0.001S")));
        fetchOne("worker-a", "hot-stale");
        // Another instance reaped the lease and handed attempt 2 to worker-b; this instance still remembers
        // attempt 1 from its own claim.
        pool.preparedQuery("""
                UPDATE jobs SET attempt = 2, lease_owner = 'worker-b', lease_expires_at = now() + interval '1 minute'
                WHERE id = $1""").execute(Tuple.of(UUID.fromString(id))).await().indefinitely();
        // worker-a's FAIL is refused (its lease is gone); worker-b's is decided afresh for attempt 2 although this
        // instance remembered attempt 1 (the write guarded by attempt 1 is refused, then re-decided).
        assertError(send(obj("job_id", id, "worker_id", "worker-a", "error", error("x", "late"))).post(Api.NACK),
                409, "conflict");
        Map<String, Object> job = jobView(id);
        assertEquals("active", job.get("state"));
        assertEquals(0, ((List<?>) job.get("errors")).size());
        assertEquals(200, send(obj("job_id", id, "worker_id", "worker-b", "error", error("x", "now")))
                .post(Api.NACK).statusCode());
        assertEquals(2, ((Map<?, ?>) ((List<?>) jobView(id).get("errors")).get(0)).get("attempt"));
    }

    @Test
    void theLeaseReaperAndARetriedFetchFollowTheSameAttempts() {
        String id = enqueue(job("hot-reaped", "retry", fixedRetry(3, "PT0.001S")));
        fetchOne("worker-a", "hot-reaped");
        // The lease runs out ahead of the server's clock, so only this run (given a later instant) takes it back,
        // not the scheduled reaper.
        Instant later = clock.instant().plusSeconds(30);
        leaseRunsOutAt(id, later.minusSeconds(1));
        assertEquals(1, reaper.runOnce(later).await().indefinitely());
        waitUntilDue(id);
        assertEquals(List.of(id), fetchIdsSoon("worker-b", "hot-reaped"));
        assertError(send(obj("job_id", id, "worker_id", "worker-a", "error", error("x", "late"))).post(Api.NACK),
                409, "conflict");
        Map<String, Object> job = jobView(id);
        assertEquals(2, job.get("attempt"));
        assertEquals("visibility_timeout", ((Map<?, ?>) ((List<?>) job.get("errors")).get(0)).get("type"));
    }

    @Test
    void aJobClaimedWithoutACheckTimeIsCheckedAndReapedAllTheSame() {
        // As an instance of the version before V36 claims: the lease's end, no check time (jobs_lease_unchecked_idx).
        String id = enqueue(job("hot-unchecked", "retry", fixedRetry(3, "PT0.001S")));
        fetchOne("worker-a", "hot-unchecked");
        Instant later = clock.instant().plusSeconds(30).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        uncheckedLeaseEndsAt(id, later.plusSeconds(30));
        assertEquals(0, reaper.runOnce(later).await().indefinitely(), "a lease not ended yet is not reaped");
        assertEquals(later.plusSeconds(30), pool.preparedQuery("SELECT lease_check_at FROM jobs WHERE id = $1")
                .execute(Tuple.of(UUID.fromString(id))).await().indefinitely().iterator().next()
                .getOffsetDateTime(0).toInstant(), "it is given its check time: the lease's end");
        uncheckedLeaseEndsAt(id, later.minusSeconds(1));
        assertEquals(1, reaper.runOnce(later).await().indefinitely(), "an ended lease is reaped");
        assertEquals("visibility_timeout", ((Map<?, ?>) ((List<?>) jobView(id).get("errors")).get(0)).get("type"));
    }

    private void uncheckedLeaseEndsAt(String id, Instant at) {
        pool.preparedQuery("UPDATE jobs SET lease_expires_at = $2, lease_check_at = NULL WHERE id = $1")
                .execute(Tuple.of(UUID.fromString(id), at.atOffset(java.time.ZoneOffset.UTC))).await().indefinitely();
    }

    @Test
    void aFetchTakesBackExpiredLeasesAtMostOncePerInterval() {
        // FETCH remembers when it may check next, also from an earlier test that had moved the clock: start past that.
        clock.set(clock.furthest());
        String first = enqueue(job("hot-fetch-reap", "retry", fixedRetry(3, "PT0.001S")));
        String second = enqueue(job("hot-fetch-reap", "retry", fixedRetry(3, "PT0.001S")));
        assertEquals(2, fetchIds("worker-a", 2, "hot-fetch-reap").size());
        // The checks look a minute ahead, and the leases run out before or after that; both are ahead of the
        // server's clock, so the scheduled reaper leaves them alone.
        Instant later = clock.instant().plusSeconds(60);
        leaseRunsOutAt(first, later.minusSeconds(30));
        leaseRunsOutAt(second, later.plus(Duration.ofHours(2)));
        assertEquals(1, expiry.reapIfDue(later).await().indefinitely(), "the first check in an interval reaps");
        assertEquals("visibility_timeout", ((Map<?, ?>) ((List<?>) jobView(first).get("errors")).get(0)).get("type"));
        // a lease that ran out after the first check's instant (every lease is written ending after its writer's now)
        leaseRunsOutAt(second, later.plusMillis(10));
        assertEquals(0, expiry.reapIfDue(later.plusMillis(50)).await().indefinitely(),
                "a second check in the same interval does not run");
        assertEquals("active", jobView(second).get("state"));
        assertEquals(1, expiry.reapIfDue(later.plusMillis(200)).await().indefinitely(), "the next interval's check reaps");
    }

    /** The job's lease ends at {@code at}, as a claim writes it (its end, and the reaper's check then). */
    private void leaseRunsOutAt(String id, Instant at) {
        pool.preparedQuery("UPDATE jobs SET lease_expires_at = $2, lease_check_at = $2 WHERE id = $1")
                .execute(Tuple.of(UUID.fromString(id), at.atOffset(java.time.ZoneOffset.UTC))).await().indefinitely();
    }

    @Test
    void theHistoryKeepsTheNewestEntriesExactlyAsTheDomainSays() {
        int failures = ErrorHistory.DEFAULT_KEEP + 3;
        String id = enqueue(job("hot-history", "retry", fixedRetry(failures + 1, "PT0.001S")));
        for (int i = 1; i <= failures; i++) {
            waitUntilDue(id);
            assertEquals(List.of(id), fetchSoon("hot-history"));
            assertEquals(200, send(obj("job_id", id, "error", error("e" + i, "failure " + i))).post(Api.NACK)
                    .statusCode());
        }
        List<Map<String, Object>> errors = (List<Map<String, Object>>) jobView(id).get("errors");
        List<Integer> expected = ErrorHistory.append(java.util.stream.IntStream.rangeClosed(1, failures - 1)
                        .mapToObj(HotPathTest::entry).toList(), entry(failures), ErrorHistory.DEFAULT_KEEP)
                .stream().map(dev.steadfast.domain.retry.ErrorEntry::attempt).toList();
        assertEquals(expected, errors.stream().map(e -> (Integer) e.get("attempt")).toList());
        assertEquals(ErrorHistory.DEFAULT_KEEP, errors.size());
        assertEquals("failure " + failures, errors.get(errors.size() - 1).get("message"));
    }

    private static dev.steadfast.domain.retry.ErrorEntry entry(int attempt) {
        return new dev.steadfast.domain.retry.ErrorEntry(1, attempt, "t", "c", "m", Instant.EPOCH, null, null);
    }

    private void expireLease(String id) {
        pool.preparedQuery("UPDATE jobs SET lease_expires_at = now() - interval '1 second',"
                        + " lease_check_at = now() - interval '1 second' WHERE id = $1")
                .execute(Tuple.of(UUID.fromString(id))).await().indefinitely();
    }

    /** Moves a retryable job's retry time to the past, so the next FETCH claims it (no sleeping). */
    private void waitUntilDue(String id) {
        pool.preparedQuery("UPDATE jobs SET run_at = now() - interval '1 second' WHERE id = $1 AND run_at IS NOT NULL")
                .execute(Tuple.of(UUID.fromString(id))).await().indefinitely();
    }

    /**
     * FETCH until the queue gives something (a few tries): the retry promoter may hold a due job's row lock for a
     * moment, and SKIP LOCKED then passes over it, as it should.
     */
    private static List<String> fetchSoon(String queue) {
        return fetchIdsSoon("w", queue);
    }

    private static List<String> fetchIdsSoon(String worker, String queue) {
        List<String> ids = List.of();
        for (int i = 0; i < 50 && ids.isEmpty(); i++) {
            ids = fetchIds(worker, 1, queue);
        }
        return ids;
    }

    private void awaitWaiters(int n) {
        org.awaitility.Awaitility.await("the FETCH should be waiting").pollInterval(java.time.Duration.ofMillis(5))
                .atMost(java.time.Duration.ofSeconds(10)).until(() -> signal.waiting() >= n);
        assertEquals(n, signal.waiting(), "the FETCH should be waiting");
    }

    @Test
    void aWaitingFetchIsForgottenWhenItAnswers() throws Exception {
        aLongPollAnswersEmptyWhenItsWaitIsOver();
        assertEquals(0, signal.waiting(), "an answered long-poll leaves no waiter behind");
    }
}
