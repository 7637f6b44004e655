package dev.steadfast.console;

import dev.steadfast.work.HeartbeatService;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;

/** {@code /admin/workers}: the workers heard from through fetch or heartbeat (read-only for now). */
@Path("/admin/workers")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class WorkersPage {

    private final HeartbeatService heartbeats;
    private final ConsoleRequest request;
    private final Clock clock;

    public WorkersPage(HeartbeatService heartbeats, ConsoleRequest request, Clock clock) {
        this.heartbeats = heartbeats;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Uni<TemplateInstance> page() {
        Chrome chrome = request.chrome("workers");
        return heartbeats.workers(500).map(rows -> Pages.workers(chrome,
                WorkersView.of(rows, heartbeats.staleAfter(), clock.instant())));
    }
}
