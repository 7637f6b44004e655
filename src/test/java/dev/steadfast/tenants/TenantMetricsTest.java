package dev.steadfast.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Per-tenant metrics (ojs-multi-tenancy MT-006): steadfast_tenant_jobs_total{tenant_id, event}, jobs without a tenant
 * as _default. The bound on the labels (beyond steadfast.events.tenant-metric-labels, _other) is domain.TenantLabels'.
 */
@QuarkusTest
class TenantMetricsTest {

    @Inject
    MeterRegistry meters;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    private double count(String tenant, String event) {
        Counter c = meters.find("steadfast.tenant.jobs").tags("tenant_id", tenant, "event", event).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aTenantsJobEventsAreCountedUnderItsLabel() {
        double enqueued = count("metrics-corp", "enqueued");
        double started = count("metrics-corp", "started");
        double untenanted = count("_default", "enqueued");
        TenantsTest.pushAs("metrics-corp", TenantsTest.job("t-metrics", 1));
        TenantsTest.pushAs("metrics-corp", TenantsTest.job("t-metrics", 2));
        Api.push(TenantsTest.job("t-metrics", 3));
        assertEquals(enqueued + 2, count("metrics-corp", "enqueued"));
        assertEquals(untenanted + 1, count("_default", "enqueued"));
        List<String> fetched = Api.fetchIds("w", 3, "t-metrics");
        assertEquals(3, fetched.size());
        assertEquals(started + 2, count("metrics-corp", "started"));
    }
}
