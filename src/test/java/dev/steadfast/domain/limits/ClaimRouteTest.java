package dev.steadfast.domain.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.domain.limits.ClaimRoute.Known;
import dev.steadfast.domain.limits.ClaimRoute.Leg;
import dev.steadfast.domain.limits.ClaimRoute.Way;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClaimRouteTest {

    private static Known known(Set<String> limited, Set<String> keyed, Map<String, List<String>> tenants,
                               Set<String> limitedTenants, boolean fair) {
        return new Known(limited, keyed, tenants, limitedTenants, fair);
    }

    @Test
    void queuesWithoutLimitsKeysOrTenantsAreOnePlainClaim() {
        Known k = known(Set.of(), Set.of(), Map.of(), Set.of(), true);
        assertEquals(List.of(new Leg(Way.PLAIN, List.of("a", "b", "c"))), ClaimRoute.plan(List.of("a", "b", "c"), k));
    }

    @Test
    void aLimitedQueueIsALegOfItsOwnAndSplitsTheRunAroundIt() {
        Known k = known(Set.of("b"), Set.of(), Map.of(), Set.of(), true);
        assertEquals(List.of(new Leg(Way.PLAIN, List.of("a")), new Leg(Way.LIMITED_QUEUE, List.of("b")),
                new Leg(Way.PLAIN, List.of("c", "d"))), ClaimRoute.plan(List.of("a", "b", "c", "d"), k));
        assertEquals(List.of(new Leg(Way.LIMITED_QUEUE, List.of("b")), new Leg(Way.LIMITED_QUEUE, List.of("b"))),
                ClaimRoute.plan(List.of("b", "b"), k), "each limited queue in its own transaction, even named twice");
    }

    @Test
    void consecutiveKeyedQueuesShareTheKeyedClaimInTheWorkersOrder() {
        Known k = known(Set.of(), Set.of("k1", "k2"), Map.of(), Set.of(), true);
        assertEquals(List.of(new Leg(Way.KEYED, List.of("k1", "k2")), new Leg(Way.PLAIN, List.of("a")),
                new Leg(Way.KEYED, List.of("k1"))), ClaimRoute.plan(List.of("k1", "k2", "a", "k1"), k));
        Known limitedToo = known(Set.of("k1"), Set.of("k1"), Map.of(), Set.of(), true);
        assertEquals(List.of(new Leg(Way.LIMITED_QUEUE, List.of("k1"))), ClaimRoute.plan(List.of("k1"), limitedToo),
                "a limited queue's own claim takes its keys' limits too");
    }

    @Test
    void tenantsMakeARunFairWhenTheFairClaimIsOnOrOneOfThemIsLimited() {
        Map<String, List<String>> tenants = Map.of("t", List.of("acme", "globex"));
        assertEquals(List.of(new Leg(Way.FAIR, List.of("a", "t"))),
                ClaimRoute.plan(List.of("a", "t"), known(Set.of(), Set.of(), tenants, Set.of(), true)));
        assertEquals(List.of(new Leg(Way.PLAIN, List.of("a", "t"))),
                ClaimRoute.plan(List.of("a", "t"), known(Set.of(), Set.of(), tenants, Set.of(), false)),
                "fair claim off, no tenant limited: the plain order");
        assertEquals(List.of(new Leg(Way.FAIR, List.of("a", "t"))),
                ClaimRoute.plan(List.of("a", "t"), known(Set.of(), Set.of(), tenants, Set.of("globex"), false)),
                "a limited tenant's jobs start only through the fair claim, whatever the setting");
        assertEquals(List.of(new Leg(Way.PLAIN, List.of("a", "t"))),
                ClaimRoute.plan(List.of("a", "t"), known(Set.of(), Set.of(), tenants, Set.of("initech"), false)),
                "a limited tenant that waits in none of the queues changes nothing");
        assertEquals(List.of(new Leg(Way.KEYED, List.of("t"))),
                ClaimRoute.plan(List.of("t"), known(Set.of(), Set.of("t"), tenants, Set.of(), true)),
                "keyed queues keep their own claim, which does not take turns");
    }

    @Test
    void theTenantsPerQueueAreReadOnlyWhenTheyCanMatter() {
        assertEquals(false, Known.tenantsMatter(false, Set.of()));
        assertEquals(true, Known.tenantsMatter(true, Set.of()));
        assertEquals(true, Known.tenantsMatter(false, Set.of("acme")));
    }

    @Test
    void theLimitedTenantsOfALegAreThoseWithJobsWaitingInItsQueues() {
        Known k = known(Set.of(), Set.of("a", "b"), Map.of("a", List.of("zed", "calm", "busy"), "b", List.of("busy"),
                "c", List.of("other")), Set.of("busy", "zed", "other"), false);
        assertEquals(List.of("busy", "zed"), List.copyOf(k.limitedTenantsIn(List.of("a", "b"))), "in id order, once");
        assertEquals(List.of(), List.copyOf(k.limitedTenantsIn(List.of("d"))));
        assertEquals(List.of(), List.copyOf(known(Set.of(), Set.of("a"), Map.of("a", List.of("busy")), Set.of(), true)
                .limitedTenantsIn(List.of("a"))), "no limited tenant");
    }
}
