package dev.steadfast.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.audit.AuditedRequests;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * GrpcAccess's table of audited RPCs against the audit log's own rule for HTTP (audit.AuditedRequests): an RPC is
 * audited exactly when the HTTP route it stands for is, so the two bindings record the same changes.
 */
class GrpcAccessTest {

    @Test
    void theAuditedRpcsAreThoseWhoseHttpRoutesTheAuditLogRecords() {
        Set<String> byHttpRule = new TreeSet<>();
        for (Map.Entry<String, String[]> e : GrpcAccess.ROUTES.entrySet()) {
            if (AuditedRequests.audited(e.getValue()[0], e.getValue()[1])) {
                byHttpRule.add(e.getKey());
            }
        }
        assertEquals(byHttpRule, new TreeSet<>(GrpcAccess.AUDITED.keySet()));
    }
}
