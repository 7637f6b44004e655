package dev.steadfast.tenants;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.detailField;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Tenants over HTTP against PostgreSQL (ojs-multi-tenancy.md, ojs-fair-scheduling.md 9): the tenant of a job from
 * meta.tenant_id or X-OJS-Tenant, isolation of FETCH, INFO and CANCEL by tenant, round-robin claims between
 * tenants, the depth limit, the admin API and refusals. Orders are checked claim by claim, never by timing.
 */
@QuarkusTest
class TenantsTest {

    static final String TENANT = "X-OJS-Tenant";

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Map<String, Object> job(String queue, Object arg) {
        return obj("type", "tenant.job", "args", arr(arg), "options", obj("queue", queue));
    }

    static Response pushAs(String tenant, Object body) {
        return send(body).header(TENANT, tenant).post(Api.JOBS);
    }

    static Response fetchAs(String tenant, int count, String queue) {
        var r = send(obj("queues", arr(queue), "count", count, "worker_id", "w-" + tenant));
        return (tenant == null ? r : r.header(TENANT, tenant)).post(Api.FETCH);
    }

    /** The tenants of the jobs one FETCH (naming no tenant) returned, in order; "-" for a job without one. */
    static List<String> tenantsOfFetch(int count, String queue) {
        Response r = fetchAs(null, count, queue);
        assertEquals(200, r.statusCode(), r::asString);
        List<Map<String, Object>> jobs = path(r, "jobs");
        List<String> out = new ArrayList<>();
        for (Map<String, Object> j : jobs) {
            Object meta = j.get("meta");
            Object t = meta instanceof Map<?, ?> m ? m.get("tenant_id") : null;
            out.add(t == null ? "-" : (String) t);
        }
        return out;
    }

    /** The first arg of every job a FETCH answered, in order. */
    static List<Object> firstArgs(Response r) {
        assertEquals(200, r.statusCode(), r::asString);
        List<List<Object>> args = path(r, "jobs.args");
        return args.stream().map(a -> a.get(0)).toList();
    }

    static void backlog(String tenant, String queue, int n) {
        for (int done = 0; done < n; done += 500) {
            List<Object> jobs = new ArrayList<>();
            for (int i = done; i < Math.min(n, done + 500); i++) {
                jobs.add(job(queue, i));
            }
            Response r = send(obj("jobs", jobs)).header(TENANT, tenant).post(Api.JOBS + "/batch");
            assertEquals(201, r.statusCode(), r::asString);
        }
    }

    @Test
    void theHeaderBecomesMetaTenantIdAndTheTenantCountsTheJob() {
        Response r = pushAs("acme-corp", job("t-header", "x"));
        assertEquals(201, r.statusCode(), r::asString);
        assertEquals("acme-corp", path(r, "job.meta.tenant_id"));
        String id = path(r, "job.id");
        assertEquals("acme-corp", path(Api.info(id), "job.meta.tenant_id"));
        String bodyOnly = Api.enqueue(obj("type", "tenant.job", "args", arr(), "meta", obj("tenant_id", "beta"),
                "options", obj("queue", "t-header")));
        assertEquals("beta", path(Api.info(bodyOnly), "job.meta.tenant_id"));
        Response same = send(obj("type", "tenant.job", "args", arr(), "meta", obj("tenant_id", "acme-corp")))
                .header(TENANT, "acme-corp").post(Api.JOBS);
        assertEquals(201, same.statusCode(), "a body that agrees with the header is fine");
        // the stored column, through the per-tenant statistics
        Response stats = Api.request().get("/ojs/v1/admin/tenants/acme-corp/stats");
        assertEquals(200, stats.statusCode(), stats::asString);
        assertEquals(2, (int) path(stats, "total_jobs"));
        assertEquals(2, (int) path(stats, "jobs.available"));
        assertEquals(1, (int) path(Api.request().get("/ojs/v1/admin/tenants/beta/stats"), "total_jobs"));
        assertEquals(0, (int) path(Api.request().get("/ojs/v1/admin/tenants/nobody/stats"), "total_jobs"));
    }

    @Test
    void aBatchTakesTheHeadersTenantForEveryJob() {
        Response r = send(obj("jobs", arr(job("t-batch", 1), job("t-batch", 2), job("t-batch", 3))))
                .header(TENANT, "batch-corp").post(Api.JOBS + "/batch");
        assertEquals(201, r.statusCode(), r::asString);
        assertEquals(List.of("batch-corp", "batch-corp", "batch-corp"), path(r, "jobs.meta.tenant_id"));
    }

    @Test
    void aWorkerNamingItsTenantGetsOnlyThatTenantsJobs() {
        pushAs("tenant-a", job("t-iso", "a-secret"));
        pushAs("tenant-b", job("t-iso", "b-data"));
        Api.enqueue(job("t-iso", "no-tenant"));
        Response b = fetchAs("tenant-b", 10, "t-iso");
        assertEquals(200, b.statusCode(), b::asString);
        assertEquals(List.of("b-data"), firstArgs(b));
        assertEquals(List.of("tenant-b"), path(b, "jobs.meta.tenant_id"));
        assertEquals(List.of(), path(fetchAs("tenant-c", 10, "t-iso"), "jobs"));
        assertEquals(List.of("a-secret"), firstArgs(fetchAs("tenant-a", 10, "t-iso")));
        assertEquals(List.of("no-tenant"), firstArgs(fetchAs(null, 10, "t-iso")));
    }

    @Test
    void anotherTenantCannotSeeOrCancelAJob() {
        String id = path(pushAs("tenant-a", job("t-cancel", 1)), "job.id");
        assertError(Api.request().header(TENANT, "tenant-b").get(Api.JOBS + "/" + id), 404, "not_found");
        assertError(Api.request().header(TENANT, "tenant-b").delete(Api.JOBS + "/" + id), 404, "not_found");
        assertEquals("available", path(Api.request().header(TENANT, "tenant-a").get(Api.JOBS + "/" + id), "job.state"));
        assertEquals(200, Api.request().header(TENANT, "tenant-a").delete(Api.JOBS + "/" + id).statusCode());
        assertEquals("cancelled", Api.state(id));
    }

    @Test
    void aLoneJobOfAnotherTenantIsClaimedWithinTheFirstClaimsDespiteABacklog() {
        backlog("tenant-a", "t-fair", 1000);
        pushAs("tenant-b", job("t-fair", "b"));
        List<String> first = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            first.addAll(tenantsOfFetch(1, "t-fair"));
        }
        assertTrue(first.contains("tenant-b"), () -> "B's job waits behind A's backlog: " + first);
        assertEquals(3, first.size());
        // round-robin: the turns alternate while both have jobs
        pushAs("tenant-b", job("t-fair", "b2"));
        pushAs("tenant-b", job("t-fair", "b3"));
        List<String> next = tenantsOfFetch(4, "t-fair");
        assertEquals(2, next.stream().filter("tenant-b"::equals).count(), () -> "one turn each: " + next);
        assertEquals(List.of("tenant-a"), tenantsOfFetch(1, "t-fair"), "B has nothing left");
    }

    @Test
    @SuppressWarnings("unchecked")
    void fairnessStaysWithinPriorityLevelsAndFollowsWeights() {
        backlog("tenant-a", "t-prio", 20);
        pushAs("tenant-b", job("t-prio", "b"));
        Map<String, Object> urgent = job("t-prio", "urgent");
        ((Map<String, Object>) urgent.get("options")).put("priority", 10);
        pushAs("tenant-a", urgent);
        Response f = fetchAs(null, 1, "t-prio");
        assertEquals(List.of("urgent"), firstArgs(f), "a higher priority goes first, whoever's turn");
        // weight 3: A takes three turns per round to B's one within a FETCH
        assertEquals(200, Api.send(obj("fairness_weight", 3)).put("/ojs/v1/admin/tenants/tenant-a").statusCode());
        for (int i = 0; i < 5; i++) {
            pushAs("tenant-b", job("t-prio", "b" + i));
        }
        List<String> got = tenantsOfFetch(8, "t-prio");
        assertEquals(List.of("tenant-a", "tenant-a", "tenant-a", "tenant-b", "tenant-a", "tenant-a", "tenant-a",
                "tenant-b").stream().sorted().toList(), got.stream().sorted().toList(), () -> "3:1 " + got);
    }

    @Test
    void aQueueWithoutTenantsKeepsItsPlainOrder() {
        for (int i = 0; i < 5; i++) {
            Api.enqueue(job("t-plain", i));
        }
        assertEquals(List.of(0, 1, 2, 3, 4), firstArgs(fetchAs(null, 5, "t-plain")));
    }

    @Test
    void malformedTenantsAreRefusedWithTheEnvelope() {
        String tooLong = "t".repeat(129);
        Map<String, Object> e = assertError(pushAs(tooLong, job("t-bad", 1)), 400, "invalid_request");
        assertEquals("X-OJS-Tenant", detailField(e));
        assertError(pushAs("bad tenant", job("t-bad", 1)), 400, "invalid_request");
        assertError(pushAs("-starts-with-dash", job("t-bad", 1)), 400, "invalid_request");
        for (Object bad : new Object[] {"", tooLong, "a\u0000b", 5, "has/slash"}) {
            Response r = Api.push(obj("type", "tenant.job", "args", arr(), "meta", obj("tenant_id", bad)));
            Map<String, Object> err = assertError(r, 400, "invalid_request");
            assertEquals("meta.tenant_id", detailField(err), r::asString);
        }
        Response conflict = send(obj("type", "tenant.job", "args", arr(), "meta", obj("tenant_id", "x")))
                .header(TENANT, "y").post(Api.JOBS);
        assertError(conflict, 400, "invalid_request");
        assertError(fetchAs("bad tenant", 1, "t-bad"), 400, "invalid_request");
        assertError(Api.request().get("/ojs/v1/admin/tenants/" + "t".repeat(200) + "/stats"), 400,
                "invalid_request");
        assertEquals(List.of(), path(fetchAs(null, 10, "t-bad"), "jobs"), "nothing was half-applied");
        assertEquals(List.of(), path(fetchAs(null, 10, "default"), "jobs"), "nothing was half-applied");
    }

    @Test
    void aTenantAtItsDepthLimitIsRefusedWith429AndOthersAreNot() {
        Response put = Api.send(obj("limits", obj("max_queue_depth", 2))).put("/ojs/v1/admin/tenants/small");
        assertEquals(200, put.statusCode(), put::asString);
        assertEquals(2, (int) path(put, "tenant.limits.max_queue_depth"));
        assertEquals(201, pushAs("small", job("t-limit", 1)).statusCode());
        assertEquals(201, pushAs("small", job("t-limit", 2)).statusCode());
        Response full = pushAs("small", job("t-limit", 3));
        assertEquals(429, full.statusCode(), full::asString);
        assertEquals("TENANT_LIMIT_EXCEEDED", path(full, "error.code"));
        assertEquals("max_queue_depth", path(full, "error.details.limit"));
        assertEquals(2, (int) path(full, "error.details.current"));
        assertTrue(full.header("Retry-After") != null);
        assertEquals(201, pushAs("other", job("t-limit", 4)).statusCode());
        Response bad = Api.send(obj("fairness_weight", 0)).put("/ojs/v1/admin/tenants/small");
        assertError(bad, 400, "invalid_request");
        assertEquals(2, (int) path(Api.request().get("/ojs/v1/admin/tenants/small"), "tenant.limits.max_queue_depth"));
    }

    @Test
    void aWorkflowsJobsCountAgainstTheirTenantsLimitsLikePushedOnes() {
        Response put = Api.send(obj("limits", obj("max_queue_depth", 3))).put("/ojs/v1/admin/tenants/wf-small");
        assertEquals(200, put.statusCode(), put::asString);
        assertEquals(201, pushAs("wf-small", job("t-wf", 1)).statusCode());
        Object chain = obj("type", "chain", "name", "too-big", "steps",
                arr(job("t-wf", 2), job("t-wf", 3), job("t-wf", 4)));
        Response full = send(chain).header(TENANT, "wf-small").post("/ojs/v1/workflows");
        assertEquals(429, full.statusCode(), full::asString);
        assertEquals("TENANT_LIMIT_EXCEEDED", path(full, "error.code"));
        assertEquals("max_queue_depth", path(full, "error.details.limit"));
        assertEquals(1, (int) path(Api.request().get("/ojs/v1/admin/tenants/wf-small/stats"), "total_jobs"),
                "nothing of the refused workflow was created");
        Object fits = obj("type", "chain", "name", "fits", "steps", arr(job("t-wf", 5), job("t-wf", 6)));
        Response ok = send(fits).header(TENANT, "wf-small").post("/ojs/v1/workflows");
        assertEquals(201, ok.statusCode(), ok::asString);
        assertEquals(201, send(chain).header(TENANT, "wf-other").post("/ojs/v1/workflows").statusCode(),
                "another tenant's workflow is not held to it");
    }

    @Test
    void poolsAreStoredAndListedAndSchedulingStatsCountDispatches() {
        Response put = Api.send(obj("name", "p1", "strategy", "weighted", "queues",
                obj("high", obj("weight", 70), "low", obj("weight", 30)))).put("/ojs/v1/admin/pools/p1");
        assertEquals(200, put.statusCode(), put::asString);
        assertEquals("weighted", path(put, "pool.strategy"));
        assertEquals(List.of("high", "low"), path(put, "pool.queues"));
        assertEquals(70, (int) path(put, "pool.weights.high"));
        assertEquals(List.of("p1"), path(Api.request().get("/ojs/v1/admin/pools"), "items.name"));
        assertError(Api.send(obj("queues", arr("a"), "strategy", "fastest")).put("/ojs/v1/admin/pools/p2"), 400,
                "invalid_request");
        assertError(Api.request().get("/ojs/v1/admin/pools/none"), 404, "not_found");
        pushAs("tenant-a", job("t-stats", 1));
        fetchAs(null, 1, "t-stats");
        Response s = Api.request().get("/ojs/v1/admin/scheduling/stats");
        assertEquals(200, s.statusCode(), s::asString);
        assertEquals(List.of("t-stats"), path(s, "queues.name"));
        assertEquals(1, Api.tree(s, "/stats/queues/0/dispatch_count_1m").asInt(), s::asString);
        assertEquals(List.of("tenant-a"), path(s, "stats.tenants.tenant_id"));
    }
}
