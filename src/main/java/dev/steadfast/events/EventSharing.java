package dev.steadfast.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.store.EventChannel;
import dev.steadfast.store.JobNotifications;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Shares lifecycle events between the instances on one database (steadfast.events.share, on by default), so
 * GET /ojs/v1/events and its stream show every instance's events whichever instance a client asks.
 *
 * <p>Through PostgreSQL's NOTIFY rather than an events table: the events are an observation window, not
 * history (job state is), so they need no durability, no WAL and no pruning, and NOTIFY delivers them to every
 * listening instance at once. Off the request path: an event is queued in memory and a flush at most every
 * {@link #FLUSH_MS} ms sends everything queued in one statement, packed into payloads of up to 7,900 bytes. Always,
 * also on an instance that believes it is alone: presence is refreshed only every two seconds, and an instance that
 * skipped sharing until it noticed a newcomer lost the newcomer's first events (measured: 3 of 5 rounds). A lone
 * instance flushes every {@link #ALONE_FLUSH_MS} ms instead, so its cost is one NOTIFY statement (and commit) a
 * second, which it hears back itself and ignores by origin, not one per 20 ms of work.
 *
 * <p>Limits: an event is lost for the other instances when the database is away at its flush (the queue is
 * dropped rather than held), or when it alone exceeds a payload; at most {@link #MAX_QUEUED} events wait.
 */
@ApplicationScoped
class EventSharing {

    static final long FLUSH_MS = 20;
    /**
     * How long events wait while no other instance is present: they are still sent (an instance that just joined
     * is seen within Instances.REFRESH_MS, and must get the events of that moment), but in one NOTIFY, one commit, a
     * second rather than one every 20 ms (W2 alone: 0.06 commits per job before).
     */
    static final long ALONE_FLUSH_MS = 1000;
    static final int MAX_QUEUED = 100_000;
    private static final Logger LOG = Logger.getLogger(EventSharing.class);

    private final String origin = UUID.randomUUID().toString().substring(0, 8);
    /** How every payload this instance sends begins ({@link #flush}). */
    private final String ownPrefix = "{\"o\":\"" + origin + "\",";
    private final ConcurrentLinkedQueue<JobEvent> outbound = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean flushing = new AtomicBoolean();
    private final EventLog log;
    private final EventChannel channel;
    private final Instances instances;
    private final ObjectMapper json;
    private final Vertx vertx;

    public EventSharing(EventLog log, EventChannel channel, Instances instances, ObjectMapper json, Vertx vertx) {
        this.log = log;
        this.channel = channel;
        this.instances = instances;
        this.json = json;
        this.vertx = vertx;
    }

    void start(@Observes StartupEvent e, EventsConfig config, JobNotifications notifications) {
        if (!config.share()) {
            return;
        }
        notifications.listenEvents(this::received);
        log.onLocal(this::queue);
    }

    private void queue(JobEvent e) {
        if (queued.incrementAndGet() > MAX_QUEUED) {
            queued.decrementAndGet();
            return;
        }
        outbound.add(e);
        if (flushing.compareAndSet(false, true)) {
            vertx.setTimer(flushDelay(), id -> flush());
        }
    }

    private void flush() {
        List<String> payloads = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        int bytes = 0;
        for (JobEvent e = outbound.poll(); e != null; e = outbound.poll()) {
            queued.decrementAndGet();
            String one = encode(e);
            int n = one.getBytes(StandardCharsets.UTF_8).length;
            if (one.isEmpty() || n + 40 > EventChannel.MAX_PAYLOAD_BYTES) {
                continue;
            }
            if (bytes + n + 1 > EventChannel.MAX_PAYLOAD_BYTES - 40) {
                payloads.add(close(b));
                b.setLength(0);
                bytes = 0;
            }
            b.append(b.length() == 0 ? ownPrefix + "\"e\":[" : ",").append(one);
            bytes += n + 1;
        }
        if (b.length() > 0) {
            payloads.add(close(b));
        }
        flushing.set(false);
        if (!outbound.isEmpty() && flushing.compareAndSet(false, true)) {
            vertx.setTimer(flushDelay(), id -> flush());
        }
        if (!payloads.isEmpty()) {
            channel.publish(payloads).subscribe().with(v -> { },
                    err -> LOG.debugf("could not share %d event payload(s): %s", payloads.size(), err.getMessage()));
        }
    }

    private long flushDelay() {
        return instances.othersPresent() ? FLUSH_MS : ALONE_FLUSH_MS;
    }

    private static String close(StringBuilder b) {
        return b.append("]}").toString();
    }

    private String encode(JobEvent e) {
        try {
            return json.writeValueAsString(new Shared(e.id(), e.type(), e.time().toString(), e.subject(), e.queue(),
                    e.jobType(), e.data()));
        } catch (JsonProcessingException ex) {
            return "";
        }
    }

    void received(String payload) {
        if (payload.startsWith(ownPrefix)) {
            return; // this instance's own notification, heard back: not parsed (a lone instance hears only these)
        }
        try {
            Notification p = json.readValue(payload, Notification.class);
            if (origin.equals(p.o()) || p.e() == null) {
                return;
            }
            instances.heardFromAnother();
            for (Shared m : p.e()) {
                log.appendRemote(new JobEvent(m.id(), m.type(), Instant.parse(m.time()), m.subject(), m.queue(),
                        m.jobType(), m.data()));
            }
        } catch (Exception ex) {
            LOG.debugf("ignored an event notification that could not be read: %s", ex.getMessage());
        }
    }

    /** One notification between instances: the sender's origin and its events. */
    record Notification(String o, List<Shared> e) {
    }

    /** An event as instances share it: the time at full precision, the job type and queue kept apart. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Shared(String id, String type, String time, String subject, String queue, String jobType,
                  Map<String, Object> data) {
    }
}
