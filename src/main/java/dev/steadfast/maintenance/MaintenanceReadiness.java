package dev.steadfast.maintenance;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** The readiness check {@code maintenance}: see {@link MaintenanceHealth}. */
@Readiness
@ApplicationScoped
public class MaintenanceReadiness implements HealthCheck {

    private final MaintenanceHealth health;

    public MaintenanceReadiness(MaintenanceHealth health) {
        this.health = health;
    }

    @Override
    public HealthCheckResponse call() {
        return health.check();
    }
}
