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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
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
 * {@link #FLUSH_MS} ms sends everything queued in one statement, packed into payloads of up to 7,900 bytes.
 *
 * <p>Only while another instance is present. An instance that believes it is alone encodes and sends nothing (it
 * used to send every event once a second, to be heard by no one: 13% of the server's CPU and 7% of PostgreSQL's in
 * W2 batch); it keeps references to its last events (at most steadfast.events.buffer-size of the last
 * {@link #CATCH_UP} of them, the events the log holds anyway). A newcomer says hello on the channel as soon as
 * it listens (a payload with no events), and an instance that hears another one, by a hello or by its events, or
 * that counts it present ({@link Instances}, every two seconds), sends the events it kept before anything newer:
 * so whatever happened after the newcomer started listening reaches it, at worst a few seconds late (an event
 * made between the newcomer's LISTEN and its hello being heard was lost for the newcomer in 3 of 5 rounds when
 * sharing was skipped without keeping them). The newcomer may also get events from just before it listened;
 * they are real events, and the log sorts them by time.
 *
 * <p>Limits: an event is lost for the other instances when the database is away at its flush (the queue is
 * dropped rather than held), or when it alone exceeds a payload; at most {@link #MAX_QUEUED} events wait; while
 * alone, only the last {@link #CATCH_UP}, at most buffer-size events, are kept for a newcomer.
 */
@ApplicationScoped
class EventSharing {

    static final long FLUSH_MS = 20;
    /**
     * How far back a newcomer gets the events of an instance that believed it was alone: a hello is heard within
     * milliseconds; a newcomer whose hello was missed (the listening connection away at that moment, or a version
     * without hellos) is counted present within two of Instances' looks.
     */
    static final Duration CATCH_UP = Duration.ofMillis(2 * Instances.REFRESH_MS + 1000);
    static final int MAX_QUEUED = 100_000;
    private static final Logger LOG = Logger.getLogger(EventSharing.class);

    private final String origin = UUID.randomUUID().toString().substring(0, 8);
    /** How every payload this instance sends begins ({@link #flush}). */
    private final String ownPrefix = "{\"o\":\"" + origin + "\",";
    private final ConcurrentLinkedQueue<JobEvent> outbound = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean flushing = new AtomicBoolean();
    /** This instance's last events while it shares nothing, oldest first (guarded by itself). */
    private final ArrayDeque<JobEvent> kept = new ArrayDeque<>();
    /** Whether events are sent: another instance was present when the last one was queued. */
    private volatile boolean sharing;
    private final int keptMax;
    private final EventLog log;
    private final EventChannel channel;
    private final Instances instances;
    private final ObjectMapper json;
    private final Vertx vertx;
    private final Clock clock;

    public EventSharing(EventLog log, EventChannel channel, Instances instances, ObjectMapper json, Vertx vertx,
                        EventsConfig config, Clock clock) {
        this.log = log;
        this.channel = channel;
        this.instances = instances;
        this.json = json;
        this.vertx = vertx;
        this.clock = clock;
        this.keptMax = Math.max(100, config.bufferSize());
    }

    void start(@Observes StartupEvent e, EventsConfig config, JobNotifications notifications) {
        if (!config.share()) {
            return;
        }
        notifications.listenEvents(this::received, this::hello);
        log.onLocal(this::queue);
    }

    /** Tells the instances already listening that this one listens now (after every LISTEN: a reconnect too). */
    private void hello() {
        channel.publish(List.of(ownPrefix + "\"e\":[]}")).subscribe().with(v -> { },
                err -> LOG.debugf("could not say hello to the other instances: %s", err.getMessage()));
    }

    private void queue(JobEvent e) {
        if (!instances.othersPresent()) {
            keep(e);
            return;
        }
        share(); // when another instance has just appeared, what was kept goes first
        send(e);
    }

    /** Keeps {@code e} while no other instance is present: the last {@code keptMax} events, oldest first. */
    private void keep(JobEvent e) {
        synchronized (kept) {
            sharing = false;
            kept.addLast(e);
            if (kept.size() > keptMax) {
                kept.pollFirst();
            }
        }
    }

    /** Starts sharing, with the events kept while alone that are at most {@link #CATCH_UP} old; once only. */
    private void share() {
        if (sharing) {
            return;
        }
        synchronized (kept) {
            if (sharing) {
                return;
            }
            sharing = true;
            Instant from = clock.instant().minus(CATCH_UP);
            for (JobEvent k : kept) {
                if (!k.time().isBefore(from)) {
                    send(k);
                }
            }
            kept.clear();
        }
    }

    private void send(JobEvent e) {
        if (queued.incrementAndGet() > MAX_QUEUED) {
            queued.decrementAndGet();
            return;
        }
        outbound.add(e);
        if (flushing.compareAndSet(false, true)) {
            vertx.setTimer(FLUSH_MS, id -> flush());
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
            vertx.setTimer(FLUSH_MS, id -> flush());
        }
        if (!payloads.isEmpty()) {
            channel.publish(payloads).subscribe().with(v -> { },
                    err -> LOG.debugf("could not share %d event payload(s): %s", payloads.size(), err.getMessage()));
        }
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
            return; // this instance's own notification (or hello), heard back: not parsed
        }
        try {
            Notification p = json.readValue(payload, Notification.class);
            if (origin.equals(p.o()) || p.e() == null) {
                return;
            }
            instances.heardFromAnother(); // a hello (no events) or another instance's events
            share();
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
                  Object data) {
    }
}
