package dev.steadfast.operations;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.maintenance.MaintenanceReadiness;
import dev.steadfast.work.Draining;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.util.Locale;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The probes of the observability extension (ojs-observability.md) at the server's root, for load balancers and
 * scrapers that do not know the OJS prefix: {@code GET /health} (the same answer as {@code /ojs/v1/health}),
 * {@code GET /ready} (200 when PostgreSQL answers, the maintenance tasks ran recently and the server is not
 * shutting down, else 503, distinct from
 * liveness) and {@code GET /metrics} (Prometheus text, the same registry as {@code /q/metrics}). All three are
 * public, like {@code /q/health} and {@code /q/metrics}; every answer carries {@code X-Request-Id}.
 */
@Path("/")
@PermitAll
class ProbeResource {

    private final SystemResource system;
    private final SystemService ping;
    private final MaintenanceReadiness maintenance;
    private final PrometheusMeterRegistry registry;
    private final ObjectMapper json;
    private final Draining draining;

    public ProbeResource(SystemResource system, SystemService ping, @Readiness MaintenanceReadiness maintenance,
                         PrometheusMeterRegistry registry, ObjectMapper json, Draining draining) {
        this.draining = draining;
        this.system = system;
        this.ping = ping;
        this.maintenance = maintenance;
        this.registry = registry;
        this.json = json;
    }

    @GET
    @Path("health")
    public Uni<Response> health() {
        return system.health();
    }

    @GET
    @Path("ready")
    public Uni<Response> ready() {
        HealthCheckResponse m = maintenance.call();
        return ping.ping().map(ms -> {
            boolean up = m.getStatus() == HealthCheckResponse.Status.UP && !draining.serverDraining();
            return Response.status(up ? 200 : 503).type("application/json")
                    .entity(body(up ? "ready" : "not_ready", "ok", m)).build();
        }).onFailure().recoverWithItem(e -> Response.status(503).type("application/json")
                .entity(body("not_ready", "unhealthy", m)).build());
    }

    private String body(String status, String backend, HealthCheckResponse m) {
        OperationsViews.Ready out = new OperationsViews.Ready(status,
                new OperationsViews.Backend("postgres", backend, null, null, null),
                new OperationsViews.Maintenance(m.getStatus().name().toLowerCase(Locale.ROOT),
                        m.getData().orElse(null)));
        try {
            return json.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @GET
    @Path("metrics")
    public Response metrics() {
        // exactly text/plain: the observability extension compares the header as a string; Prometheus reads the
        // text format 0.0.4 when no version is given
        return Response.ok(registry.scrape()).header("Content-Type", "text/plain").build();
    }
}
