package dev.steadfast.tenants;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Parallel;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A tenant's max_concurrency (ojs-multi-tenancy.md 8.1, MT-003) over HTTP against PostgreSQL: at most that many of
 * the tenant's jobs active at once under many parallel FETCHes, other tenants and jobs without a tenant claimed
 * meanwhile, the tenant's next jobs handed out as its jobs finish or when the limit is removed, bad values refused.
 * Jobs leave the active state only through this test's ACKs and FAILs, so counting what each round of parallel
 * FETCHes handed out proves the bound at every moment.
 */
@QuarkusTest
class TenantConcurrencyTest {

    static final String TENANT = "X-OJS-Tenant";
    static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI base;

    @jakarta.inject.Inject
    TenantFairness fairness;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Response limit(String tenant, Object maxConcurrency) {
        return send(obj("limits", obj("max_concurrency", maxConcurrency))).put("/ojs/v1/admin/tenants/" + tenant);
    }

    static void push(String tenant, String queue, int n) {
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(obj("type", "tenant.job", "args", arr(i), "options", obj("queue", queue)));
        }
        var req = send(obj("jobs", jobs));
        Response r = (tenant == null ? req : req.header(TENANT, tenant)).post(Api.JOBS + "/batch");
        assertEquals(201, r.statusCode(), r::asString);
    }

    /** One FETCH naming no tenant: the jobs' ids by tenant ("-" for none). */
    static Map<String, List<String>> fetchByTenant(String queue, int count) {
        Response r = send(obj("queues", arr(queue), "count", count, "worker_id", "w")).post(Api.FETCH);
        assertEquals(200, r.statusCode(), r::asString);
        Map<String, List<String>> out = new java.util.TreeMap<>();
        List<Map<String, Object>> jobs = path(r, "jobs");
        for (Map<String, Object> j : jobs) {
            Object t = j.get("meta") instanceof Map<?, ?> m ? m.get("tenant_id") : null;
            out.computeIfAbsent(t == null ? "-" : (String) t, k -> new ArrayList<>()).add((String) j.get("id"));
        }
        return out;
    }

    static List<String> fetchAs(String tenant, String queue, int count) {
        Response r = send(obj("queues", arr(queue), "count", count, "worker_id", "w-" + tenant)).header(TENANT, tenant)
                .post(Api.FETCH);
        assertEquals(200, r.statusCode(), r::asString);
        return path(r, "jobs.id");
    }

    static int active(String tenant) {
        Response s = Api.request().get("/ojs/v1/admin/tenants/" + tenant + "/stats");
        assertEquals(200, s.statusCode(), s::asString);
        return path(s, "jobs.active");
    }

    /** 20 FETCHes at once, each of count 2, from several workers; the ids they got. */
    List<String> parallelFetches(String queue) throws Exception {
        String root = base.toString().replaceAll("/$", "");
        List<Parallel.Call> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(new Parallel.Call(root, Api.FETCH, obj("queues", arr(queue), "count", 2, "worker_id", "w" + i),
                    null));
        }
        List<String> ids = new ArrayList<>();
        for (HttpResponse<String> r : Parallel.send(calls)) {
            assertEquals(200, r.statusCode(), r::body);
            for (JsonNode j : JSON.readTree(r.body()).path("jobs")) {
                assertEquals("busy", j.at("/meta/tenant_id").asText());
                ids.add(j.path("id").asText());
            }
        }
        return ids;
    }

    @Test
    void theLimitHoldsUnderManyParallelFetchesAndFreedSlotsAreHandedOutAgain() throws Exception {
        assertEquals(200, limit("busy", 3).statusCode());
        push("busy", "tc-par", 50);
        Set<String> seen = new HashSet<>();
        List<String> running = new ArrayList<>();
        int rounds = 0;
        while (seen.size() < 50) {
            List<String> got = parallelFetches("tc-par");
            int expected = Math.min(3 - running.size(), 50 - seen.size());
            assertEquals(expected, got.size(), () -> "round handed out " + got.size() + " with " + running.size()
                    + " of the tenant's jobs active (limit 3)");
            for (String id : got) {
                assertTrue(seen.add(id), "a job handed out twice: " + id);
            }
            running.addAll(got);
            assertEquals(running.size(), active("busy"));
            // finish one or two of them (ACK and FAIL both free a slot), so later rounds refill one or two
            int finish = rounds % 2 == 0 ? 1 : 2;
            for (int i = 0; i < finish && !running.isEmpty(); i++) {
                String id = running.remove(0);
                Response r = i == 0 ? Api.ack(id)
                        : Api.nack(id, obj("code", "boom", "message", "fails for good", "retryable", false));
                assertEquals(200, r.statusCode(), r::asString);
            }
            assertTrue(++rounds < 200, "the tenant's jobs stopped being handed out");
        }
        assertTrue(active("busy") <= 3);
    }

    @Test
    void otherTenantsAndJobsWithoutATenantAreClaimedWhileALimitedTenantIsAtItsLimit() {
        assertEquals(200, limit("busy", 1).statusCode());
        push("busy", "tc-mix", 5);
        push("calm", "tc-mix", 3);
        push(null, "tc-mix", 3);
        Map<String, List<String>> first = fetchByTenant("tc-mix", 20);
        assertEquals(1, first.get("busy").size(), first::toString);
        assertEquals(3, first.get("calm").size(), first::toString);
        assertEquals(3, first.get("-").size(), first::toString);
        assertEquals(Map.of(), fetchByTenant("tc-mix", 20), "the limited tenant is at its limit");
        assertEquals(List.of(), fetchAs("busy", "tc-mix", 20), "a FETCH naming the tenant gets nothing either");
        // its job finishes: exactly one more may start, through either kind of FETCH
        assertEquals(200, Api.ack(first.get("busy").get(0)).statusCode());
        List<String> next = fetchAs("busy", "tc-mix", 20);
        assertEquals(1, next.size());
        assertEquals(Map.of(), fetchByTenant("tc-mix", 20));
        // removing the limit releases the rest at once
        Response removed = limit("busy", null);
        assertEquals(200, removed.statusCode(), removed::asString);
        assertNull(path(removed, "tenant.limits.max_concurrency"));
        assertEquals(3, fetchByTenant("tc-mix", 20).get("busy").size());
        assertEquals(4, active("busy"));
    }

    /** {@code n} jobs of {@code tenant} in {@code queue} under the rate limit key {@code key} (concurrency {@code keyMax}). */
    static void pushKeyed(String tenant, String queue, String key, int keyMax, int n) {
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(obj("type", "tenant.keyed", "args", arr(i), "options", obj("queue", queue,
                    "rate_limit", obj("key", key, "concurrency", keyMax))));
        }
        Response r = send(obj("jobs", jobs)).header(TENANT, tenant).post(Api.JOBS + "/batch");
        assertEquals(201, r.statusCode(), r::asString);
    }

    @Test
    void aLimitedTenantsJobsInAQueueWithKeyedJobsRunWithinBothLimits() {
        assertEquals(200, limit("busy", 2).statusCode());
        pushKeyed("busy", "tc-keyed", "tc-key", 5, 3);
        push("busy", "tc-keyed", 2);
        pushKeyed("calm", "tc-keyed", "tc-calm-key", 1, 3);
        push(null, "tc-keyed", 1);
        Map<String, List<String>> first = fetchByTenant("tc-keyed", 20);
        assertEquals(2, first.get("busy").size(), "the tenant's limit, over its keyed and plain jobs: " + first);
        assertEquals(1, first.get("calm").size(), "the key's limit: " + first);
        assertEquals(1, first.get("-").size(), first::toString);
        assertEquals(2, active("busy"));
        assertEquals(Map.of(), fetchByTenant("tc-keyed", 20), "both limits reached");
        // a finished job frees one of the tenant's slots, and only one
        assertEquals(200, Api.ack(first.get("busy").get(0)).statusCode());
        Map<String, List<String>> next = fetchByTenant("tc-keyed", 20);
        assertEquals(1, next.getOrDefault("busy", List.of()).size(), next::toString);
        assertEquals(2, active("busy"));
        // the limit removed, the rest runs within the key's own limit (5)
        assertEquals(200, limit("busy", null).statusCode());
        assertEquals(2, fetchByTenant("tc-keyed", 20).getOrDefault("busy", List.of()).size());
        assertEquals(4, active("busy"));
    }

    @Test
    void aLimitInTwoQueuesCountsTheTenantsJobsInBoth() {
        assertEquals(200, limit("busy", 2).statusCode());
        push("busy", "tc-a", 3);
        push("busy", "tc-b", 3);
        Response r = send(obj("queues", arr("tc-a", "tc-b"), "count", 10, "worker_id", "w")).post(Api.FETCH);
        assertEquals(2, ((List<?>) path(r, "jobs")).size(), r::asString);
        assertEquals(List.of(), fetchAs("busy", "tc-b", 10), "across all queues");
        assertEquals(Map.of(), fetchByTenant("tc-b", 10));
    }

    @Test
    void inAQueueWithItsOwnConcurrencyLimitBothLimitsHold() {
        Response q = send(obj("concurrency", 3)).put("/ojs/v1/admin/queues/tc-lq/rate-limit");
        assertEquals(200, q.statusCode(), q::asString);
        assertEquals(200, limit("busy", 1).statusCode());
        push("busy", "tc-lq", 3);
        push("calm", "tc-lq", 1);
        Map<String, List<String>> first = fetchByTenant("tc-lq", 10);
        assertEquals(1, first.get("busy").size(), first::toString);
        assertEquals(1, first.get("calm").size(), first::toString);
        assertEquals(Map.of(), fetchByTenant("tc-lq", 10), "the tenant is at its limit, the queue is not");
        push("calm", "tc-lq", 2);
        List<String> calm = new ArrayList<>(first.get("calm"));
        calm.addAll(fetchByTenant("tc-lq", 10).get("calm"));
        // the queue is at its limit (3 active): a slot the tenant frees goes to the queue's other jobs first
        assertEquals(200, Api.ack(first.get("busy").get(0)).statusCode());
        Map<String, List<String>> refill = fetchByTenant("tc-lq", 10);
        assertEquals(Map.of("calm", 1), Map.of("calm", refill.get("calm").size()), refill::toString);
        assertEquals(1, refill.size(), refill::toString);
        assertEquals(200, Api.ack(calm.get(0)).statusCode());
        assertEquals(200, Api.ack(calm.get(1)).statusCode());
        Map<String, List<String>> next = fetchByTenant("tc-lq", 10);
        assertEquals(1, next.get("busy").size(), next::toString);
        assertEquals(1, next.size(), next::toString);
        assertEquals(Map.of(), fetchByTenant("tc-lq", 10));
    }

    @Test
    void finishingALimitedTenantsJobPointsAtTheQueuesWhereItsNextJobsWait() {
        assertEquals(200, limit("busy", 1).statusCode());
        push("busy", "tc-wake", 2);
        push("calm", "tc-wake", 1);
        Map<String, List<String>> got = fetchByTenant("tc-wake", 10);
        String busy = got.get("busy").get(0);
        // what an ACK or FAIL of that job wakes (one waiting FETCH per queue): the queues where the tenant waits
        assertEquals(List.of("tc-wake"), fairness.finished(java.util.UUID.fromString(busy)));
        assertEquals(List.of(), fairness.finished(java.util.UUID.fromString(busy)), "once");
        assertEquals(List.of(), fairness.finished(java.util.UUID.fromString(got.get("calm").get(0))),
                "a tenant without a limit frees no slot");
    }

    @Test
    void theAdminApiShowsTheLimitAndTheActiveJobs() {
        Response put = send(obj("fairness_weight", 2, "limits", obj("max_queue_depth", 100, "max_concurrency", 4)))
                .put("/ojs/v1/admin/tenants/shown");
        assertEquals(200, put.statusCode(), put::asString);
        assertEquals(4, (int) path(put, "tenant.limits.max_concurrency"));
        Response get = Api.request().get("/ojs/v1/admin/tenants/shown");
        assertEquals(4, (int) path(get, "tenant.limits.max_concurrency"), get::asString);
        assertEquals(100, (int) path(get, "tenant.limits.max_queue_depth"));
        push("shown", "tc-show", 6);
        assertEquals(4, fetchAs("shown", "tc-show", 10).size());
        Response stats = Api.request().get("/ojs/v1/admin/tenants/shown/stats");
        assertEquals(4, (int) path(stats, "limits.max_concurrency.limit"), stats::asString);
        assertEquals(4, (int) path(stats, "limits.max_concurrency.current"), stats::asString);
        assertEquals(2, (int) path(stats, "limits.max_queue_depth.current"), stats::asString);
        // the limits endpoint (9.3) replaces the limits and keeps the weight
        Response lim = send(obj("max_concurrency", 5, "reason", "incident")).put("/ojs/v1/admin/tenants/shown/limits");
        assertEquals(200, lim.statusCode(), lim::asString);
        assertEquals(5, (int) path(lim, "tenant.limits.max_concurrency"));
        assertEquals(2, (int) path(lim, "tenant.fairness_weight"));
        assertEquals(1, fetchAs("shown", "tc-show", 10).size());
    }

    @Test
    void aBadLimitIsRefusedWithTheEnvelopeAndChangesNothing() {
        assertEquals(200, limit("strict", 3).statusCode());
        for (Object bad : new Object[] {0, -1, 2.5, "3", true, 2147483648L, obj("limit", 3)}) {
            Map<String, Object> e = assertError(limit("strict", bad), 400, "invalid_request");
            assertEquals("limits.max_concurrency", detailField(e), () -> "for " + bad);
        }
        assertError(send(obj("max_concurrency", 0)).put("/ojs/v1/admin/tenants/strict/limits"), 400,
                "invalid_request");
        assertError(send(obj("max_concurrency", "x")).put("/ojs/v1/admin/tenants/strict/limits"), 400,
                "invalid_request");
        Response get = Api.request().get("/ojs/v1/admin/tenants/strict");
        assertEquals(3, (int) path(get, "tenant.limits.max_concurrency"), get::asString);
        assertError(limit("fresh", 0), 400, "invalid_request");
        assertError(Api.request().get("/ojs/v1/admin/tenants/fresh"), 404, "not_found");
    }
}
