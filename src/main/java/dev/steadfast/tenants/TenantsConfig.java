package dev.steadfast.tenants;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Tenants (ojs-multi-tenancy.md) and fair claiming between them (ojs-fair-scheduling.md 9). */
@ConfigMapping(prefix = "steadfast.tenants")
interface TenantsConfig {

    /**
     * Whether a FETCH from a queue holding tenant jobs takes turns between the tenants (round-robin, weighted by
     * each tenant's fairness_weight) instead of the queue's plain order. Queues without tenant jobs are claimed the
     * plain way either way.
     */
    @WithDefault("true")
    boolean fairClaim();
}
