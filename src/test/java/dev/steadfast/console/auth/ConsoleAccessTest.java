package dev.steadfast.console.auth;

import static dev.steadfast.console.auth.ConsoleRole.ADMIN;
import static dev.steadfast.console.auth.ConsoleRole.OPERATOR;
import static dev.steadfast.console.auth.ConsoleRole.READONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The console's role rules as a truth table: which role each kind of request needs, and what each role may do. */
class ConsoleAccessTest {

    @Test
    void whatEachRequestNeeds() {
        assertEquals(READONLY, ConsoleAccess.required("GET", "/admin/dead-letter", null));
        assertEquals(READONLY, ConsoleAccess.required("HEAD", "/admin/jobs/x", null));
        assertEquals(READONLY, ConsoleAccess.required("POST", "/admin/login", null));
        assertEquals(READONLY, ConsoleAccess.required("POST", "/admin/logout", null));
        assertEquals(OPERATOR, ConsoleAccess.required("POST", "/admin/jobs/x/actions/retry", null));
        assertEquals(OPERATOR, ConsoleAccess.required("POST", "/admin/jobs/x/actions/cancel", null));
        assertEquals(OPERATOR, ConsoleAccess.required("POST", "/admin/queues/q/pause", null));
        assertEquals(OPERATOR, ConsoleAccess.required("POST", "/admin/cron/c/resume", null));
        assertEquals(OPERATOR, ConsoleAccess.required("POST", "/admin/errors/1/discard", null));
        assertEquals(OPERATOR, ConsoleAccess.required("POST", "/admin/workflows/w/actions/retry-failed", null));
        assertEquals(OPERATOR, ConsoleAccess.required("POST", "/admin/dead-letter/bulk", "retry-matching"));
        assertEquals(OPERATOR, ConsoleAccess.required("POST", "/admin/some-new-action", null), "new actions: operator");
        assertEquals(ADMIN, ConsoleAccess.required("POST", "/admin/jobs/x/actions/delete", null));
        assertEquals(ADMIN, ConsoleAccess.required("POST", "/admin/errors/1/delete", null));
        assertEquals(ADMIN, ConsoleAccess.required("POST", "/admin/cron/c/delete/", null));
        assertEquals(ADMIN, ConsoleAccess.required("POST", "/admin/dead-letter/bulk", "delete-selected"));
        assertEquals(ADMIN, ConsoleAccess.required("POST", "/admin/dead-letter/bulk", " Delete-Matching"));
        assertEquals(ADMIN, ConsoleAccess.required("POST", "/admin/jobs/bulk", "delete"));
        assertEquals(ADMIN, ConsoleAccess.required("POST", "/admin/queues/q/limits", null));
        assertEquals(ADMIN, ConsoleAccess.required("POST", "/admin/queues/q/settings", null));
        assertEquals(ADMIN, ConsoleAccess.required("PUT", "/admin/queues/q/rate-limit", null));
    }

    @Test
    void eachRoleIncludesTheOnesBelow() {
        String[][] requests = {{"GET", "/admin"}, {"POST", "/admin/queues/q/pause"}, {"POST", "/admin/errors/1/delete"}};
        boolean[][] allowed = {
                // readonly, operator, admin
                {true, true, true},
                {false, true, true},
                {false, false, true}};
        ConsoleRole[] roles = {READONLY, OPERATOR, ADMIN};
        for (int i = 0; i < requests.length; i++) {
            for (int j = 0; j < roles.length; j++) {
                assertEquals(allowed[i][j], ConsoleAccess.allows(roles[j], requests[i][0], requests[i][1], null),
                        roles[j] + " " + requests[i][0] + " " + requests[i][1]);
            }
        }
        assertFalse(ConsoleAccess.allows(null, "GET", "/admin", null), "nobody logged in");
    }

    @Test
    void rolesOnTheIdentity() {
        assertEquals(Set.of("readonly"), READONLY.names());
        assertEquals(Set.of("readonly", "operator"), OPERATOR.names());
        assertEquals(Set.of("readonly", "operator", "admin"), ADMIN.names());
        assertEquals(OPERATOR, ConsoleRole.highest(Set.of("readonly", "operator", "producer")));
        assertEquals(null, ConsoleRole.highest(Set.of("producer", "worker")));
        assertTrue(ADMIN.includes(OPERATOR) && !READONLY.includes(OPERATOR));
        assertEquals(OPERATOR, ConsoleRole.of(" Operator "));
        assertEquals(null, ConsoleRole.of("root"));
    }
}
