package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.events.EventLog;
import dev.steadfast.events.JobEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureFailure;
import io.smallrye.mutiny.subscription.MultiEmitter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.openjobspec.ojs.v1.Event;
import org.openjobspec.ojs.v1.StreamEventsRequest;

/**
 * StreamEvents (ojs-grpc-binding.md 10.2): the lifecycle events the SSE stream sends (events.EventLog, every
 * instance's), as {@link Event} messages, filtered by {@code queues}, {@code event_types}, {@code job_id} and
 * {@code workflow_id}, the filters ANDed (an empty one passes everything). A reader that falls more than
 * {@value #MAX_WAITING} events behind is cut off with UNAVAILABLE ({@code details.reason: "slow_consumer"}) rather
 * than buffered without bound; a {@code stream.keepalive} event goes out every
 * {@code steadfast.grpc.keepalive-interval} (15 s); at shutdown every stream ends with UNAVAILABLE ({@code "shutting_down"}), so clients
 * reconnect to another instance.
 */
@ApplicationScoped
class GrpcEvents {

    static final int MAX_WAITING = 1000;
    /** Sent every {@code steadfast.grpc.keepalive-interval} whatever the filters: it is about the stream, not a job. */
    static final String KEEPALIVE = "stream.keepalive";

    private final EventLog events;
    private final ObjectMapper json;
    private final Set<MultiEmitter<? super Event>> open = ConcurrentHashMap.newKeySet();

    private final Clock clock;
    private final Duration keepaliveInterval;

    GrpcEvents(EventLog events, ObjectMapper json, Clock clock, GrpcConfig config) {
        this.events = events;
        this.json = json;
        this.clock = clock;
        this.keepaliveInterval = config.keepaliveInterval();
    }

    Multi<Event> stream(StreamEventsRequest r, String requestId) {
        Set<String> queues = Set.copyOf(r.getQueuesList());
        Set<String> types = Set.copyOf(r.getEventTypesList());
        String job = r.getJobId();
        String workflow = r.getWorkflowId();
        Multi<Event> live = Multi.createFrom().<Event>emitter(em -> {
            Consumer<JobEvent> sink = e -> {
                if ((queues.isEmpty() || queues.contains(e.queue())) && (types.isEmpty() || types.contains(e.type()))
                        && (job.isEmpty() || job.equals(e.subject()))
                        && (workflow.isEmpty() || workflow.equals(workflowOf(e)))) {
                    em.emit(event(e));
                }
            };
            open.add(em);
            events.subscribe(sink);
            em.onTermination(() -> {
                events.unsubscribe(sink);
                open.remove(em);
            });
        }).onOverflow().buffer(MAX_WAITING).onFailure().transform(f -> f instanceof BackPressureFailure
                ? GrpcErrors.of(ErrorCode.SERVER_BUSY, "This stream's reader fell more than " + MAX_WAITING
                        + " events behind; reconnect.", Map.of("reason", "slow_consumer"), requestId, json)
                : GrpcErrors.of(f, requestId, json));
        Multi<Event> keepalive = Multi.createFrom().ticks().every(keepaliveInterval)
                .map(n -> Event.newBuilder().setType(KEEPALIVE).setTimestamp(ProtoJson.timestamp(clock.instant()))
                        .build());
        return Multi.createBy().merging().streams(live, keepalive);
    }

    void shutdown(@Observes ShutdownEvent e) {
        for (MultiEmitter<? super Event> em : open) {
            em.fail(GrpcErrors.of(ErrorCode.BACKEND_UNAVAILABLE, "This server is shutting down; reconnect.",
                    Map.of("reason", "shutting_down"), null, json));
        }
    }

    private static String workflowOf(JobEvent e) {
        Object w = e.data() instanceof Map<?, ?> m ? m.get("workflow_id") : null;
        return w == null ? null : w.toString();
    }

    private Event event(JobEvent e) {
        Event.Builder b = Event.newBuilder().setId(e.id()).setType(e.type())
                .setTimestamp(ProtoJson.timestamp(e.time()));
        if (e.subject() != null) {
            b.setJobId(e.subject());
        }
        if (e.jobType() != null) {
            b.setJobType(e.jobType());
        }
        if (e.queue() != null) {
            b.setQueue(e.queue());
        }
        String workflow = workflowOf(e);
        if (workflow != null) {
            b.setWorkflowId(workflow);
        }
        if (e.data() != null) {
            b.setData(ProtoJson.struct(json.valueToTree(e.data())));
        }
        return b.build();
    }
}
