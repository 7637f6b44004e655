package dev.steadfast.maintenance;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * The readiness check {@code vacuum-horizon}: always UP (a transaction another client keeps open is not cured by
 * taking this instance out of a load balancer), with {@link VacuumHorizon}'s last reading as details, and
 * {@code warning} when it is past steadfast.vacuum-horizon.warn-after.
 */
@Readiness
@ApplicationScoped
class VacuumHorizonReadiness implements HealthCheck {

    private final VacuumHorizon horizon;

    public VacuumHorizonReadiness(VacuumHorizon horizon) {
        this.horizon = horizon;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder b = HealthCheckResponse.named("vacuum-horizon").up();
        VacuumHorizon.Reading r = horizon.last();
        if (r == null) {
            return b.withData("sampled", "not yet").build();
        }
        b.withData("oldest_transaction_seconds", Math.round(r.oldestSeconds()))
                .withData("horizon_seconds", Math.round(r.horizonSeconds()))
                .withData("horizon_xids", r.horizonXids())
                .withData("sampled_at", r.at().toString());
        if (r.raw().holderPid() != null) {
            b.withData("horizon_pid", r.raw().holderPid());
            b.withData("horizon_state", String.valueOf(r.raw().holderState()));
        }
        if (r.raw().slot() != null) {
            b.withData("replication_slot", r.raw().slot());
        }
        String warning = r.warning(horizon.warnAfter());
        if (warning != null) {
            b.withData("warning", warning);
        }
        return b.build();
    }
}
