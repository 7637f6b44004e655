package dev.steadfast.tenants;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.limits.EnqueueRate;
import dev.steadfast.store.tenants.TenantAdmissionStore;
import dev.steadfast.store.tenants.TenantStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tenant limits a PUSH passes (ojs-multi-tenancy 8.1, 8.2), in this order, for one tenant of the request:
 * max_queue_depth (its waiting jobs plus the new ones), max_scheduled (its scheduled jobs plus the new scheduled
 * ones; a PUSH of jobs to run now is not counted) and max_enqueue_rate (tokens of {@link EnqueueRate}'s bucket, taken
 * last so a PUSH refused by a count takes none). A refusal is 429 TENANT_LIMIT_EXCEEDED naming the tenant, the limit,
 * the current count and the maximum, with Retry-After. The counts and the insert are not one transaction: concurrent
 * PUSHes of one tenant may pass a count limit by the jobs they carry; the rate holds (its bucket is taken under the
 * tenant row's lock). Tokens taken by a PUSH that a later check refuses (a queue's depth bound) are not given back.
 */
@ApplicationScoped
class TenantAdmission {

    private final TenantAdmissionStore store;

    public TenantAdmission(TenantAdmissionStore store) {
        this.store = store;
    }

    /** True when {@code l} holds a limit this class checks. */
    static boolean checkedAtPush(TenantStore.Limits l) {
        return l.maxQueueDepth() != null || l.maxScheduled() != null || l.enqueueRateLimit() != null;
    }

    /** Admits {@code jobs} new jobs of {@code tenant}, {@code scheduled} of them scheduled, or refuses them all. */
    Uni<Void> admit(String tenant, TenantStore.Limits l, int jobs, int scheduled, Instant now) {
        Uni<Void> depth = l.maxQueueDepth() == null ? Uni.createFrom().voidItem()
                : store.waiting(tenant).invoke(n -> {
                    if (n + jobs > l.maxQueueDepth()) {
                        throw refused(tenant, "max_queue_depth", n, l.maxQueueDepth(), Duration.ofSeconds(1));
                    }
                }).replaceWithVoid();
        Uni<Void> future = l.maxScheduled() == null || scheduled == 0 ? Uni.createFrom().voidItem()
                : store.scheduled(tenant).invoke(n -> {
                    if (n + scheduled > l.maxScheduled()) {
                        throw refused(tenant, "max_scheduled", n, l.maxScheduled(), Duration.ofSeconds(1));
                    }
                }).replaceWithVoid();
        if (l.enqueueRateLimit() == null) {
            return depth.flatMap(v -> future);
        }
        EnqueueRate rate = new EnqueueRate(l.enqueueRateLimit(), Duration.ofMillis(l.enqueueRatePeriodMs()));
        return depth.flatMap(v -> future).flatMap(v -> store.takeTokens(tenant, now, b -> rate.take(b, jobs, now)))
                .invoke(t -> {
                    if (t != null && !t.admitted()) {
                        throw refused(tenant, "max_enqueue_rate", rate.used(t.bucket(), now), rate.limit(),
                                t.retryAfter());
                    }
                }).replaceWithVoid();
    }

    /** 429 TENANT_LIMIT_EXCEEDED as ojs-multi-tenancy 8.2 shows it; Retry-After in whole seconds, at least 1. */
    static OjsException refused(String tenant, String limit, long current, long maximum, Duration retryAfter) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("tenant_id", tenant);
        d.put("limit", limit);
        d.put("current", current);
        d.put("maximum", maximum);
        d.put("retry_after_seconds", Math.max(1, (retryAfter.toMillis() + 999) / 1000));
        return new OjsException(ErrorCode.TENANT_LIMIT_EXCEEDED, "Tenant '" + tenant + "' has exceeded " + limit
                + " (" + maximum + ")", d);
    }
}
