package dev.steadfast.console;

import dev.steadfast.stats.StatsService;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The console's home: {@code GET /admin}, and its live part {@code GET /admin/overview/live} (every 5 s). */
@Path("/admin")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class OverviewPage {

    private final StatsService stats;
    private final ConsoleRequest request;

    public OverviewPage(StatsService stats, ConsoleRequest request) {
        this.stats = stats;
        this.request = request;
    }

    @GET
    public Uni<TemplateInstance> page() {
        Chrome chrome = request.chrome("overview");
        return stats.overview().map(o -> Pages.overview(chrome, OverviewView.of(o)));
    }

    @GET
    @Path("/overview/live")
    public Uni<TemplateInstance> live() {
        return stats.overview().map(o -> Pages.overview$live(OverviewView.of(o)));
    }
}
