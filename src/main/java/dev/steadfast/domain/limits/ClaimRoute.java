package dev.steadfast.domain.limits;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * How one FETCH claims from its queues, decided once, up front, from what this instance knows about them: which
 * queues have limits (ojs-rate-limiting.md 7.2), which hold jobs with a rate limit key (6), which hold tenant jobs
 * and which tenants have a max_concurrency (ojs-multi-tenancy). The queues are taken in the worker's order; each
 * {@link Leg} is one claim, the next leg asks for what the earlier ones left. A FETCH whose queues have none of
 * these is one {@link Way#PLAIN} leg: the one claim statement, as if limits and tenants did not exist.
 *
 * <p>The rules: a limited queue is a leg of its own ({@link Way#LIMITED_QUEUE}: claimed under its row's lock); a run
 * of consecutive queues that are not limited shares one leg, split where the queues change between holding keyed
 * jobs or not ({@link Way#KEYED}: the keyed claim, which takes the keys' limits); a run without keyed jobs is
 * {@link Way#FAIR} (turns between tenants) when one of its queues holds tenant jobs and either the fair claim is on
 * or one of those tenants is limited (the fair claim is the only one that starts a limited tenant's jobs), else
 * {@link Way#PLAIN}. What this instance knows may be up to a second old: it only chooses the way, and every way's
 * statement checks the limits it is about against the database, so a stale choice delays jobs, never breaks a limit.
 */
public final class ClaimRoute {

    private ClaimRoute() {
    }

    /** The claims a leg can take. */
    public enum Way {
        /** The plain claim statement: no limits, no keys, no turns between tenants. */
        PLAIN,
        /** Turns between the tenants with waiting jobs, capped for limited tenants. */
        FAIR,
        /** One limited queue, under its row's lock. */
        LIMITED_QUEUE,
        /** Queues holding jobs with a rate limit key. */
        KEYED
    }

    /** One claim of a FETCH: the way and the queues it covers, in the worker's order. */
    public record Leg(Way way, List<String> queues) {
    }

    /**
     * What this instance knows about the queues: the limited queues, the queues holding keyed jobs, the tenants with
     * waiting jobs per queue (empty when neither the fair claim nor a tenant limit needs them), the tenants with a
     * max_concurrency, and whether the fair claim is on (steadfast.tenants.fair-claim).
     */
    public record Known(Set<String> limitedQueues, Set<String> keyedQueues, Map<String, List<String>> tenantsByQueue,
                        Set<String> limitedTenants, boolean fairClaim) {

        /** The tenants with a max_concurrency that have waiting jobs in {@code queues}, in id order. */
        public SortedSet<String> limitedTenantsIn(List<String> queues) {
            SortedSet<String> out = new TreeSet<>();
            for (String q : queues) {
                for (String t : tenantsByQueue.getOrDefault(q, List.of())) {
                    if (limitedTenants.contains(t)) {
                        out.add(t);
                    }
                }
            }
            return out;
        }

        /** Whether the tenants per queue matter to any FETCH (else they need not be read). */
        public static boolean tenantsMatter(boolean fairClaim, Set<String> limitedTenants) {
            return fairClaim || !limitedTenants.isEmpty();
        }
    }

    /** The legs of a FETCH of {@code queues}, in order. */
    public static List<Leg> plan(List<String> queues, Known k) {
        List<Leg> legs = new ArrayList<>();
        int from = 0;
        while (from < queues.size()) {
            String first = queues.get(from);
            if (k.limitedQueues().contains(first)) {
                legs.add(new Leg(Way.LIMITED_QUEUE, List.of(first)));
                from++;
                continue;
            }
            boolean keyed = k.keyedQueues().contains(first);
            int to = from;
            while (to < queues.size() && !k.limitedQueues().contains(queues.get(to))
                    && k.keyedQueues().contains(queues.get(to)) == keyed) {
                to++;
            }
            List<String> run = List.copyOf(queues.subList(from, to));
            legs.add(new Leg(keyed ? Way.KEYED : fair(run, k) ? Way.FAIR : Way.PLAIN, run));
            from = to;
        }
        return legs;
    }

    /** Whether a run of plain queues takes turns between tenants. */
    private static boolean fair(List<String> run, Known k) {
        for (String q : run) {
            for (String tenant : k.tenantsByQueue().getOrDefault(q, List.of())) {
                if (k.fairClaim() || k.limitedTenants().contains(tenant)) {
                    return true;
                }
            }
        }
        return false;
    }
}
