package dev.steadfast.events;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

/** The lifecycle events kept for GET /ojs/v1/events and shared between instances. */
@ConfigMapping(prefix = "steadfast.events")
interface EventsConfig {

    /** Recent lifecycle events kept in memory for GET /ojs/v1/events. */
    @WithDefault("10000")
    @Positive
    int bufferSize();

    /**
     * Share lifecycle events with the other instances on the same database (NOTIFY on the channel
     * {@code steadfast_events}), so GET /ojs/v1/events and its stream show every instance's events. Sent every
     * 20 ms while another instance is present, once a second while this one believes it is alone (EventSharing).
     */
    @WithDefault("true")
    boolean share();

    /**
     * Distinct tenant_id labels of {@code steadfast_tenant_jobs_total} (ojs-multi-tenancy MT-006): the first tenants
     * seen keep their own, later ones are counted as {@code _other}, jobs without a tenant as {@code _default}.
     * 0: no per-tenant metric.
     */
    @WithDefault("1000")
    @PositiveOrZero
    int tenantMetricLabels();
}
