package dev.steadfast.events;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Recent lifecycle events, kept in a bounded in-memory window (steadfast.events.buffer-size) for
 * GET /ojs/v1/events, and pushed to live subscribers: this instance's own events and, through
 * {@link EventSharing}, those of the other instances on the same database. Event ids are UUIDv7 with the
 * {@code evt_} prefix, so they sort by time and serve as the polling cursor; the window is kept in id order, so
 * an event that arrives late from another instance takes its place by time.
 *
 * <p>While other instances are present, a poll answers only events older than {@link #SETTLE}, so that a cursor
 * does not move past an event still on its way from another instance (they arrive within tens of milliseconds).
 *
 * <p>This instance wants the others' events only while someone reads them here ({@link #interested}): a live
 * subscriber (the SSE stream, gRPC StreamEvents, StreamJobs waiting for its jobs' ACKs) or a poll in the last
 * steadfast.events.poll-interest. {@link EventSharing} asks the other instances for their events while it is so,
 * and is told at once when it begins ({@link #onInterest}).
 *
 * <p>Limit: the window is lost on restart (a restarted instance shows events from its start on); it is an
 * observation window, not an audit log. Job state in the database is always the source of truth.
 */
@ApplicationScoped
public class EventLog {

    /** How old an event must be before a poll answers it while other instances are present. */
    static final Duration SETTLE = Duration.ofMillis(250);

    private final int capacity;
    private final TreeMap<String, JobEvent> ring = new TreeMap<>();
    private final List<Consumer<JobEvent>> subscribers = new CopyOnWriteArrayList<>();
    private final List<Consumer<JobEvent>> localListeners = new CopyOnWriteArrayList<>();
    private final Instances instances;
    private final Clock clock;
    private final long pollInterestNanos;
    /** When the last poll was answered (System.nanoTime); none yet: a poll interest long over. */
    private volatile long polledAt;
    private volatile Runnable interestBegins = () -> { };

    public EventLog(EventsConfig config, Instances instances, Clock clock) {
        this.capacity = Math.max(100, config.bufferSize());
        this.instances = instances;
        this.clock = clock;
        this.pollInterestNanos = config.pollInterest().toNanos();
        this.polledAt = System.nanoTime() - pollInterestNanos - 1;
    }

    /** Records an event of {@code type} about the job {@code jobId}, filed under the type and queue its data name. */
    public void emit(String type, Instant at, String jobId, EventData.OfJob data) {
        local(new JobEvent(JobEvent.newId(at), type, at, jobId, data.queue(), data.jobType(), data));
    }

    /** Records an event about a queue (queue.paused, queue.resumed, cron.skipped): the queue is its subject. */
    public void emitQueue(String type, Instant at, EventData.OfQueue data) {
        local(new JobEvent(JobEvent.newId(at), type, at, data.queue(), data.queue(), null, data));
    }

    private void local(JobEvent e) {
        append(e);
        for (Consumer<JobEvent> l : localListeners) {
            l.accept(e);
        }
    }

    /** An event another instance emitted. */
    void appendRemote(JobEvent e) {
        append(e);
    }

    private void append(JobEvent e) {
        synchronized (ring) {
            ring.put(e.id(), e);
            if (ring.size() > capacity) {
                ring.pollFirstEntry();
            }
        }
        for (Consumer<JobEvent> s : subscribers) {
            s.accept(e);
        }
    }

    /** Records an event about something other than a job or a queue (a webhook delivery): {@code subject}. */
    public void emitAbout(String type, Instant at, String subject, Object data) {
        local(new JobEvent(JobEvent.newId(at), type, at, subject, null, null, data));
    }

    /** Events after {@code afterId} (exclusive; null for the oldest kept) matching the filters, oldest first. */
    public Page list(String afterId, Set<String> types, Set<String> queues, Set<String> jobTypes, int limit) {
        boolean begins = !interested();
        polledAt = System.nanoTime();
        if (begins) {
            interestBegins.run();
        }
        List<JobEvent> out = new ArrayList<>(Math.min(limit, 64));
        boolean more = false;
        Instant settled = instances.othersPresent() ? clock.instant().minus(SETTLE) : null;
        synchronized (ring) {
            for (JobEvent e : (afterId == null ? ring : ring.tailMap(afterId, false)).values()) {
                if (settled != null && e.time().isAfter(settled)) {
                    break;
                }
                // a queue event has no job type (null): it never matches a job_types filter (Set.of throws on null)
                if (!matches(types, e.type()) || !matches(queues, e.queue()) || !matches(jobTypes, e.jobType())) {
                    continue;
                }
                if (out.size() == limit) {
                    more = true;
                    break;
                }
                out.add(e);
            }
        }
        return new Page(out, out.isEmpty() ? afterId : out.get(out.size() - 1).id(), more);
    }

    private static boolean matches(Set<String> wanted, String value) {
        return wanted.isEmpty() || value != null && wanted.contains(value);
    }

    /** A page of events and the cursor to continue from. */
    public record Page(List<JobEvent> events, String cursor, boolean hasMore) {
    }

    public void subscribe(Consumer<JobEvent> s) {
        boolean begins = !interested();
        subscribers.add(s);
        if (begins) {
            interestBegins.run();
        }
    }

    /**
     * Whether someone reads events here: a live subscriber, or a poll less than steadfast.events.poll-interest ago
     * (a client that polls keeps it). While not, the other instances' events are not needed here (EventSharing).
     */
    boolean interested() {
        return !subscribers.isEmpty() || System.nanoTime() - polledAt < pollInterestNanos;
    }

    /** Runs {@code r} when {@link #interested} becomes true (on the reader's thread: it must not block). */
    void onInterest(Runnable r) {
        interestBegins = r;
    }

    /**
     * Called with each event this instance emits (not those received from other instances), on the thread that
     * emits it (often a request's event loop): a listener must only hand the event on, never do I/O itself.
     */
    public void onLocal(Consumer<JobEvent> l) {
        localListeners.add(l);
    }

    public void unsubscribe(Consumer<JobEvent> s) {
        subscribers.remove(s);
    }

    /** Forgets every event, and that anyone polled (the reset hook). */
    public void clear() {
        synchronized (ring) {
            ring.clear();
        }
        polledAt = System.nanoTime() - pollInterestNanos - 1;
    }
}
