package dev.steadfast.api;

import dev.steadfast.service.EventLog;
import dev.steadfast.service.JobEvent;
import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * The live event stream (extension "event-stream"): lifecycle events as server-sent events, one JSON event
 * envelope (ojs-events.md section 2) per message, filtered by {@code types}, {@code queues} and
 * {@code job_types} (comma-separated). A comment-free heartbeat event {@code {"type":"stream.keepalive"}} is
 * sent every 15 s so proxies keep the connection open. Events are this instance's (see {@link EventLog}).
 */
@Path("/ojs/v1/events/stream")
public class EventStreamResource {

    private final EventLog events;

    public EventStreamResource(EventLog events) {
        this.events = events;
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    public Multi<Map<String, Object>> stream(@QueryParam("types") String types, @QueryParam("queues") String queues,
                                             @QueryParam("job_types") String jobTypes) {
        Set<String> t = SystemResource.csv(types), q = SystemResource.csv(queues), j = SystemResource.csv(jobTypes);
        Multi<Map<String, Object>> live = Multi.createFrom().emitter(em -> {
            Consumer<JobEvent> sink = e -> {
                if ((t.isEmpty() || t.contains(e.type())) && (q.isEmpty() || q.contains(e.queue()))
                        && (j.isEmpty() || j.contains(e.jobType()))) {
                    em.emit(SystemResource.event(e));
                }
            };
            events.subscribe(sink);
            em.onTermination(() -> events.unsubscribe(sink));
        });
        Multi<Map<String, Object>> keepalive = Multi.createFrom().ticks().every(Duration.ofSeconds(15))
                .map(n -> Map.<String, Object>of("type", "stream.keepalive"));
        return Multi.createBy().merging().streams(live, keepalive);
    }
}
