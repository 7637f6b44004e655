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

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The tenant limits a PUSH passes beside max_queue_depth: max_enqueue_rate and max_scheduled (ojs-multi-tenancy 8). */
@QuarkusTest
class TenantAdmissionTest {

    static final String TENANTS = "/ojs/v1/admin/tenants/";

    @Inject
    TestClock clock;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static Response pushAs(String tenant, Object body) {
        return TenantsTest.pushAs(tenant, body);
    }

    static Map<String, Object> scheduledJob(String queue, Object arg) {
        return obj("type", "tenant.job", "args", arr(arg), "options", obj("queue", queue, "scheduled_at", "+PT1H"));
    }

    private static void configure(String tenant, Map<String, Object> limits) {
        Response put = send(obj("limits", limits)).put(TENANTS + tenant);
        assertEquals(200, put.statusCode(), put::asString);
    }

    @Test
    void aTenantPastItsEnqueueRateIsRefusedWholeUntilTokensAreBackAndOthersAreNot() {
        clock.freeze();
        configure("rated", obj("max_enqueue_rate", obj("limit", 3, "period", "PT1M")));
        Response get = Api.request().get(TENANTS + "rated");
        assertEquals(3, (int) path(get, "tenant.limits.max_enqueue_rate.limit"));
        assertEquals("PT1M", path(get, "tenant.limits.max_enqueue_rate.period"));
        assertEquals(201, send(obj("jobs", arr(TenantsTest.job("t-rate", 1), TenantsTest.job("t-rate", 2))))
                .header(TenantsTest.TENANT, "rated").post(Api.JOBS + "/batch").statusCode());
        assertEquals(201, pushAs("rated", TenantsTest.job("t-rate", 3)).statusCode());
        Response over = pushAs("rated", TenantsTest.job("t-rate", 4));
        assertEquals(429, over.statusCode(), over::asString);
        assertEquals("TENANT_LIMIT_EXCEEDED", path(over, "error.code"));
        assertEquals("max_enqueue_rate", path(over, "error.details.limit"));
        assertEquals("rated", path(over, "error.details.tenant_id"));
        assertEquals(3, (int) path(over, "error.details.current"));
        assertEquals(3, (int) path(over, "error.details.maximum"));
        assertEquals("20", over.header("Retry-After"), "one token comes back every 20 s");
        assertEquals(201, pushAs("other", TenantsTest.job("t-rate", 5)).statusCode(), "other tenants are not limited");
        assertEquals(201, Api.push(TenantsTest.job("t-rate", 6)).statusCode(), "nor are jobs without a tenant");
        clock.advance(Duration.ofSeconds(20));
        assertEquals(201, pushAs("rated", TenantsTest.job("t-rate", 7)).statusCode(), "one token came back");
        assertEquals(429, pushAs("rated", TenantsTest.job("t-rate", 8)).statusCode());
        clock.advance(Duration.ofMinutes(1));
        Response batch = send(obj("jobs", arr(TenantsTest.job("t-rate", 9), TenantsTest.job("t-rate", 10),
                TenantsTest.job("t-rate", 11), TenantsTest.job("t-rate", 12))))
                .header(TenantsTest.TENANT, "rated").post(Api.JOBS + "/batch");
        assertEquals(429, batch.statusCode(), "a batch above the limit never passes: " + batch.asString());
        assertEquals("60", batch.header("Retry-After"));
        Response stats = Api.request().get(TENANTS + "rated/stats");
        assertEquals(4, (int) path(stats, "total_jobs"), "the refused pushes created nothing: " + stats.asString());
        assertEquals(3, (int) path(stats, "limits.max_enqueue_rate.limit"));
    }

    @Test
    void aTenantAtItsScheduledLimitIsRefusedForScheduledJobsOnly() {
        configure("planner", obj("max_scheduled", 2));
        assertEquals(2, (int) path(Api.request().get(TENANTS + "planner"), "tenant.limits.max_scheduled"));
        assertEquals(201, pushAs("planner", scheduledJob("t-sched", 1)).statusCode());
        assertEquals(201, pushAs("planner", scheduledJob("t-sched", 2)).statusCode());
        Response full = pushAs("planner", scheduledJob("t-sched", 3));
        assertEquals(429, full.statusCode(), full::asString);
        assertEquals("max_scheduled", path(full, "error.details.limit"));
        assertEquals(2, (int) path(full, "error.details.current"));
        assertEquals(2, (int) path(full, "error.details.maximum"));
        assertEquals("1", full.header("Retry-After"));
        assertEquals(201, pushAs("planner", TenantsTest.job("t-sched", 4)).statusCode(), "a job to run now passes");
        assertEquals(201, pushAs("other", scheduledJob("t-sched", 5)).statusCode());
        Response stats = Api.request().get(TENANTS + "planner/stats");
        assertEquals(2, (int) path(stats, "limits.max_scheduled.current"), stats::asString);
        assertEquals(2, (int) path(stats, "limits.max_scheduled.limit"));
    }

    @Test
    void badLimitsAreRefusedNamingTheFieldAndChangeNothing() {
        configure("kept", obj("max_scheduled", 5, "max_enqueue_rate", obj("limit", 10, "period", "PT1M")));
        Object[][] bad = {
            {obj("max_scheduled", -1), "limits.max_scheduled"},
            {obj("max_scheduled", "3"), "limits.max_scheduled"},
            {obj("max_enqueue_rate", obj("limit", 0, "period", "PT1M")), "limits.max_enqueue_rate.limit"},
            {obj("max_enqueue_rate", obj("limit", 5)), "limits.max_enqueue_rate.period"},
            {obj("max_enqueue_rate", obj("period", "PT1M")), "limits.max_enqueue_rate.limit"},
            {obj("max_enqueue_rate", obj("limit", 5, "period", "a minute")), "limits.max_enqueue_rate.period"},
            {obj("max_enqueue_rate", obj("limit", 5, "period", "PT0.5S")), "limits.max_enqueue_rate.period"},
            {obj("max_enqueue_rate", obj("limit", 5, "period", "P2D")), "limits.max_enqueue_rate.period"},
            {obj("max_enqueue_rate", obj("limit", 5, "period", 60)), "limits.max_enqueue_rate.period"},
            {obj("max_enqueue_rate", 100), "limits.max_enqueue_rate"},
        };
        for (Object[] b : bad) {
            Response r = send(obj("limits", b[0])).put(TENANTS + "kept");
            assertEquals(b[1], detailField(assertError(r, 400, "invalid_request")), r.asString());
            Response l = send(b[0]).put(TENANTS + "kept/limits");
            String field = (String) detailField(assertError(l, 400, "invalid_request"));
            assertTrue(field.endsWith(b[1].toString().substring("limits.".length())), field);
        }
        Response get = Api.request().get(TENANTS + "kept");
        assertEquals(5, (int) path(get, "tenant.limits.max_scheduled"));
        assertEquals(10, (int) path(get, "tenant.limits.max_enqueue_rate.limit"));
        configure("kept", obj());
        Response cleared = Api.request().get(TENANTS + "kept");
        assertNull(path(cleared, "tenant.limits.max_enqueue_rate"));
        assertNull(path(cleared, "tenant.limits.max_scheduled"));
        for (int i = 0; i < 12; i++) {
            assertEquals(201, pushAs("kept", TenantsTest.job("t-kept", i)).statusCode(), "no limit is left");
        }
    }

    @Test
    void theDefaultTenantsEnqueueRateLimitsJobsWithoutATenant() {
        clock.freeze();
        configure("_default", obj("max_enqueue_rate", obj("limit", 2, "period", "PT10S")));
        assertEquals(2, (int) path(Api.request().get(TENANTS + "_default"), "tenant.limits.max_enqueue_rate.limit"));
        assertEquals(201, Api.push(TenantsTest.job("t-default", 1)).statusCode());
        assertEquals(201, Api.push(TenantsTest.job("t-default", 2)).statusCode());
        Response over = Api.push(TenantsTest.job("t-default", 3));
        assertEquals(429, over.statusCode(), over::asString);
        assertEquals("_default", path(over, "error.details.tenant_id"));
        assertEquals("max_enqueue_rate", path(over, "error.details.limit"));
        assertEquals("5", over.header("Retry-After"));
        Response mixed = send(obj("jobs", arr(TenantsTest.job("t-default", 4), TenantsTest.job("t-default", 5))))
                .post(Api.JOBS + "/batch");
        assertEquals(429, mixed.statusCode(), "a batch without tenants counts against _default too");
        assertEquals(201, pushAs("acme", TenantsTest.job("t-default", 6)).statusCode(), "a tenant's job is its own");
        clock.advance(Duration.ofSeconds(5));
        assertEquals(201, Api.push(TenantsTest.job("t-default", 7)).statusCode());
        assertEquals(4, Api.fetchIds("w", 10, "t-default").size(), "the refused pushes created nothing");
        assertEquals(204, Api.request().delete(TENANTS + "_default").statusCode());
        assertEquals(201, Api.push(TenantsTest.job("t-default", 8)).statusCode(), "no limit once removed");
    }

    @Test
    void theDefaultTenantTakesOnlyAnEnqueueRateAndNamesRefuseTheReservedForms() {
        Object[][] refused = {
            {obj("limits", obj("max_queue_depth", 10)), "limits.max_queue_depth"},
            {obj("limits", obj("max_concurrency", 10)), "limits.max_concurrency"},
            {obj("limits", obj("max_scheduled", 10)), "limits.max_scheduled"},
            {obj("fairness_weight", 3), "fairness_weight"},
        };
        for (Object[] r : refused) {
            Response put = send(r[0]).put(TENANTS + "_default");
            assertEquals(r[1], detailField(assertError(put, 400, "invalid_request")), put.asString());
        }
        assertError(Api.request().get(TENANTS + "_default"), 404, "not_found");
        assertEquals("tenant_id", detailField(assertError(send(obj()).put(TENANTS + "_other"), 400, "invalid_request")));
        Response named = send(TenantsTest.job("t-default", 1)).header(TenantsTest.TENANT, "_default").post(Api.JOBS);
        assertEquals("X-OJS-Tenant", detailField(assertError(named, 400, "invalid_request")), "no job names it");
    }
}
