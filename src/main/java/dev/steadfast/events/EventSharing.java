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
 * <p>Only while another instance asks for them. An instance where someone reads events ({@link EventLog#interested}:
 * a live subscriber, or a poll in the last steadfast.events.poll-interest) says so on the channel at once and then
 * every {@link #ASK_MS} ms (a payload {@code {"o": <origin>, "w": true, "e": []}}); an instance sends its events
 * while it heard such a request less than {@link #ASKED_FOR} ago. Otherwise it encodes and sends nothing (sending
 * every event to the others whether anyone read them or not cost 12.7% of the server's CPU in W1 bulk with a second,
 * idle instance present, and every other instance the parsing), and it keeps references to its last events (at
 * most steadfast.events.buffer-size of the last {@link #CATCH_UP} of them, the events the log holds anyway): when a
 * request arrives it sends those first, so a reader sees the others' events from a few seconds before it began to
 * read. An instance nobody reads events on does not parse the others' events either.
 *
 * <p>Limits: an event is lost for the other instances when the database is away at its flush (the queue is
 * dropped rather than held), or when it alone exceeds a payload; at most {@link #MAX_QUEUED} events wait; the
 * others' events from before a reader began are not shown (but the last {@link #CATCH_UP}, at most buffer-size).
 * Versions before the requests shared with every instance present and sent a hello without one: during a rolling
 * upgrade from them, the older instances show the newer ones' events only while a newer instance asks for them.
 */
@ApplicationScoped
class EventSharing {

    static final long FLUSH_MS = 20;
    /** How often an instance where someone reads events asks the others for theirs. */
    static final long ASK_MS = 1000;
    /** How long one request makes the others send: three of them may be missed (the database away) before a gap. */
    static final long ASKED_FOR = 3 * ASK_MS + 500;
    /**
     * How far back a reader gets the events of an instance that was not sending: a request is heard within
     * milliseconds; this also covers a first request lost (the listening connection away at that moment) and the
     * next one, a second later.
     */
    static final Duration CATCH_UP = Duration.ofSeconds(5);
    /** Longer than any request ({@link #ask}); every payload with an event is longer. */
    private static final int REQUEST_MAX_LENGTH = 64;
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
    /** Whether events are sent: another instance asked for them when the last one was queued. */
    private volatile boolean sharing;
    /** Until when (System.nanoTime) another instance asked for this one's events. */
    private volatile long askedUntil = System.nanoTime();
    /** The timer that asks the others again while someone reads events here; -1: none (guarded by this). */
    private long asking = -1;
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
        notifications.listenEvents(this::received, this::listening);
        log.onLocal(this::queue);
        log.onInterest(this::interestBegins);
    }

    /** After every LISTEN (a reconnect too): while someone reads events here, ask for the others' at once. */
    private void listening() {
        if (log.interested()) {
            ask();
        }
    }

    /** Someone began to read events here: ask the others for theirs now, and every {@link #ASK_MS} while it lasts. */
    private void interestBegins() {
        ask();
        synchronized (this) {
            if (asking < 0) {
                asking = vertx.setPeriodic(ASK_MS, this::askAgain);
            }
        }
    }

    private void askAgain(long timer) {
        if (log.interested()) {
            ask();
            return;
        }
        synchronized (this) {
            vertx.cancelTimer(timer);
            if (asking == timer) {
                asking = -1;
            }
        }
        if (log.interested()) { // a reader came between the look and the cancel
            interestBegins();
        }
    }

    private void ask() {
        channel.publish(List.of(ownPrefix + "\"w\":true,\"e\":[]}")).subscribe().with(v -> { },
                err -> LOG.debugf("could not ask the other instances for their events: %s", err.getMessage()));
    }

    private void queue(JobEvent e) {
        if (askedUntil - System.nanoTime() <= 0) {
            keep(e);
            return;
        }
        share(); // when another instance has just asked, what was kept goes first
        send(e);
    }

    /** Keeps {@code e} while no other instance asks for events: the last {@code keptMax} events, oldest first. */
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
            return; // this instance's own notification (or request), heard back: not parsed
        }
        if (payload.length() > REQUEST_MAX_LENGTH && !log.interested()) {
            instances.heardFromAnother(); // events another instance sent for someone else: nobody reads them here
            return;
        }
        try {
            Notification p = json.readValue(payload, Notification.class);
            if (origin.equals(p.o()) || p.e() == null) {
                return;
            }
            instances.heardFromAnother(); // a request, a hello of an older version, or another instance's events
            if (Boolean.TRUE.equals(p.w())) {
                askedUntil = System.nanoTime() + ASKED_FOR * 1_000_000;
                share();
            }
            if (p.e().isEmpty() || !log.interested()) {
                return;
            }
            for (Shared m : p.e()) {
                log.appendRemote(new JobEvent(m.id(), m.type(), Instant.parse(m.time()), m.subject(), m.queue(),
                        m.jobType(), m.data()));
            }
        } catch (Exception ex) {
            LOG.debugf("ignored an event notification that could not be read: %s", ex.getMessage());
        }
    }

    /**
     * One notification between instances: the sender's origin, whether it asks for the others' events (absent:
     * no), and its events.
     */
    record Notification(String o, Boolean w, List<Shared> e) {
    }

    /** An event as instances share it: the time at full precision, the job type and queue kept apart. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Shared(String id, String type, String time, String subject, String queue, String jobType,
                  Object data) {
    }
}
