package dev.steadfast.events;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/** The lifecycle events kept for GET /ojs/v1/events and shared between instances. */
@ConfigMapping(prefix = "steadfast.events")
interface EventsConfig {

    /** Recent lifecycle events kept in memory for GET /ojs/v1/events. */
    @WithDefault("10000")
    @Positive
    int bufferSize();

    /**
     * Share lifecycle events with the other instances on the same database (NOTIFY on the channel
     * {@code steadfast_events}), so GET /ojs/v1/events and its stream show every instance's events: an instance
     * sends its events, every 20 ms, only while another one asks for them because someone reads events there
     * (EventSharing).
     */
    @WithDefault("true")
    boolean share();

    /**
     * How long after a GET /ojs/v1/events this instance still asks the others for their events (an open event
     * stream, StreamEvents or StreamJobs asks for as long as it is open). A client that polls more often keeps the
     * events of every instance coming; the first poll after a longer pause sees the others' events from a few
     * seconds before it on.
     */
    @WithDefault("PT5M")
    @DurationMin(millis = 0)
    Duration pollInterest();

    /**
     * Distinct tenant_id labels of {@code steadfast_tenant_jobs_total} (ojs-multi-tenancy MT-006): the first tenants
     * seen keep their own, later ones are counted as {@code _other}, jobs without a tenant as {@code _default}.
     * 0: no per-tenant metric.
     */
    @WithDefault("1000")
    @PositiveOrZero
    int tenantMetricLabels();
}
