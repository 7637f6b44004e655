package dev.steadfast.console;

import dev.steadfast.queues.QueueService;
import dev.steadfast.stats.StatsService;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;

/** {@code /admin/queues}: depth by state per queue, and pause / resume (the same {@link QueueService} as the API). */
@Path("/admin/queues")
@Produces(MediaType.TEXT_HTML)
@PermitAll
public class QueuesPage {

    private final StatsService stats;
    private final QueueService queues;
    private final ConsoleRequest request;
    private final Clock clock;

    public QueuesPage(StatsService stats, QueueService queues, ConsoleRequest request, Clock clock) {
        this.stats = stats;
        this.queues = queues;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Uni<TemplateInstance> page() {
        Chrome chrome = request.chrome("queues");
        return stats.queues().map(q -> Pages.queues(chrome, QueuesView.of(q, clock.instant())));
    }

    @POST
    @Path("/{name}/pause")
    public Uni<Response> pause(@PathParam("name") String name) {
        return queues.pause(name, request.actor()).map(q -> Flash.redirect("/admin/queues",
                "Paused queue " + name + ": workers get no jobs from it until it is resumed; enqueueing continues."));
    }

    @POST
    @Path("/{name}/resume")
    public Uni<Response> resume(@PathParam("name") String name) {
        return queues.resume(name, request.actor())
                .map(q -> Flash.redirect("/admin/queues", "Resumed queue " + name + "."));
    }
}
