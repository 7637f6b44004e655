package dev.steadfast.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Json;
import dev.steadfast.http.Params;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Multi;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The live event stream (extension "event-stream"): lifecycle events as server-sent events, one JSON event
 * envelope (ojs-events.md section 2) per message, filtered by {@code types}, {@code queues} and
 * {@code job_types} (comma-separated), and by the SDKs' {@code channel} ({@code queue:<name>}, {@code job:<id>},
 * comma-separated; {@code *} or {@code all} is everything). Every 15 s an SSE comment ({@code : keepalive}) keeps
 * proxies from closing the connection; clients never see it as an event. Events of every instance (see
 * {@link EventLog}).
 */
@Path("/ojs/v1/events/stream")
@RolesAllowed({Roles.READONLY, Roles.ADMIN})
class EventStreamResource {

    private final EventLog events;
    private final ObjectMapper json;

    public EventStreamResource(EventLog events, ObjectMapper json) {
        this.events = events;
        this.json = json;
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    public Multi<OutboundSseEvent> stream(@QueryParam("types") String types, @QueryParam("queues") String queues,
                                          @QueryParam("job_types") String jobTypes,
                                          @QueryParam("channel") String channel, @Context Sse sse) {
        Set<String> t = Params.csv(types), j = Params.csv(jobTypes);
        Set<String> q = new HashSet<>(Params.csv(queues));
        Set<String> jobs = new HashSet<>();
        for (String c : Params.csv(channel)) {
            if (c.startsWith("queue:") && c.length() > 6) {
                q.add(c.substring(6));
            } else if (c.startsWith("job:") && c.length() > 4) {
                jobs.add(c.substring(4));
            } else if (!c.equals("*") && !c.equals("all")) {
                throw OjsException.invalidField("channel", "'channel' must be queue:<name>, job:<id> or *"
                        + " (comma-separated).", "queue:<name> | job:<id> | *", c);
            }
        }
        Multi<OutboundSseEvent> live = Multi.createFrom().emitter(em -> {
            Consumer<JobEvent> sink = e -> {
                if ((t.isEmpty() || t.contains(e.type())) && (q.isEmpty() || q.contains(e.queue()))
                        && (j.isEmpty() || j.contains(e.jobType()))
                        && (jobs.isEmpty() || (e.subject() != null && jobs.contains(e.subject())))) {
                    em.emit(sse.newEventBuilder().data(Json.write(json, JobEvent.cloudEvent(e))).build());
                }
            };
            events.subscribe(sink);
            em.onTermination(() -> events.unsubscribe(sink));
        });
        Multi<OutboundSseEvent> keepalive = Multi.createFrom().ticks().every(Duration.ofSeconds(15))
                .map(n -> sse.newEventBuilder().comment("keepalive").build());
        return Multi.createBy().merging().streams(live, keepalive);
    }
}
