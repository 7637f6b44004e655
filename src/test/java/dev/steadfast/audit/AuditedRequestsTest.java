package dev.steadfast.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which requests are recorded, how actions are named and outcomes told apart, and how scope values are cut. */
class AuditedRequestsTest {

    @Test
    void changesFromTheConsoleAndTheAdminApiAreRecordedReadsAndWorkNot() {
        assertTrue(AuditedRequests.audited("POST", "/admin/dead-letter/bulk"));
        assertTrue(AuditedRequests.audited("POST", "/admin/queues/q/pause"));
        assertFalse(AuditedRequests.audited("POST", "/admin/login"));
        assertFalse(AuditedRequests.audited("POST", "/admin/logout"));
        assertFalse(AuditedRequests.audited("GET", "/admin/audit"));
        assertTrue(AuditedRequests.audited("POST", "/ojs/v1/admin/jobs/x/retry"));
        assertTrue(AuditedRequests.audited("DELETE", "/ojs/v1/admin/jobs/completed"));
        assertTrue(AuditedRequests.audited("POST", "/ojs/v1/admin/reset"));
        assertTrue(AuditedRequests.audited("POST", "/ojs/v1/queues/q/pause"));
        assertTrue(AuditedRequests.audited("POST", "/ojs/v1/dead-letter/retry"));
        assertTrue(AuditedRequests.audited("PUT", "/ojs/v1/admin/queues/q/config"));
        assertTrue(AuditedRequests.audited("DELETE", "/ojs/v1/jobs/0190"), "OJS CANCEL");
        assertTrue(AuditedRequests.audited("DELETE", "/ojs/v1/workflows/w1"), "workflow cancel");
        assertFalse(AuditedRequests.audited("POST", "/ojs/v1/jobs"), "PUSH is not an admin change");
        assertFalse(AuditedRequests.audited("POST", "/ojs/v1/workers/fetch"));
        assertFalse(AuditedRequests.audited("POST", "/ojs/v1/workers/ack"));
        assertFalse(AuditedRequests.audited("GET", "/ojs/v1/admin/audit"));
        assertFalse(AuditedRequests.audited("POST", "/q/health"));
    }

    @Test
    void confirmationPagesAndUnknownCallersAreNotRecorded() {
        assertFalse(AuditedRequests.recorded("/admin/dead-letter/bulk", 200), "the confirmation page");
        assertTrue(AuditedRequests.recorded("/admin/dead-letter/bulk", 303));
        assertTrue(AuditedRequests.recorded("/admin/dead-letter/bulk", 403));
        assertTrue(AuditedRequests.recorded("/ojs/v1/admin/jobs/x/retry", 200));
        assertFalse(AuditedRequests.recorded("/ojs/v1/admin/jobs/x/retry", 401));
    }

    @Test
    void actionNames() {
        assertEquals("dead-letter.retry-matching",
                AuditedRequests.action("/admin/dead-letter/bulk", "bulk", "retry-matching", null));
        assertEquals("errors.discard", AuditedRequests.action("/admin/errors/{id}/{action}", "act", null, "discard"));
        assertEquals("jobs.retry", AuditedRequests.action("/admin/jobs/{id}/actions//retry", "retry", null, null));
        assertEquals("jobs.bulk-retry", AuditedRequests.action("/ojs/v1/admin/jobs/bulk/retry", "bulkRetry", null, null));
        assertEquals("queues.pause", AuditedRequests.action("/ojs/v1/queues/{name}/pause", "pause", null, null));
        assertEquals("reset", AuditedRequests.action("/ojs/v1/admin/reset", "reset", null, null));
        assertEquals("console", AuditedRequests.via("/admin/x"));
        assertEquals("api", AuditedRequests.via("/ojs/v1/admin/x"));
    }

    @Test
    void outcomes() {
        assertEquals("ok", AuditedRequests.outcome(200));
        assertEquals("ok", AuditedRequests.outcome(303));
        assertEquals("refused", AuditedRequests.outcome(403));
        assertEquals("rejected", AuditedRequests.outcome(409));
        assertEquals("failed", AuditedRequests.outcome(503));
    }

    @Test
    void scopeValuesAreCutAndCleaned() {
        List<String> many = java.util.stream.IntStream.range(0, 30).mapToObj(i -> "id" + i).toList();
        Map<String, Object> s = AuditLog.scope(Map.of("q", "a\u0000b\nc", "ids", many, "n", 3,
                "long", "x".repeat(500)));
        assertEquals("a b c", s.get("q"));
        assertEquals(AuditLog.MAX_ITEMS, ((List<?>) s.get("ids")).size());
        assertEquals(30, s.get("ids_count"));
        assertEquals(3, s.get("n"));
        assertEquals(AuditLog.MAX_VALUE, ((String) s.get("long")).length());
    }
}
