package dev.steadfast.service;

import dev.steadfast.config.SteadfastConfig;
import dev.steadfast.domain.JobIds;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The lifecycle events this instance emitted, kept in a bounded in-memory ring (steadfast.events.buffer-size)
 * for GET /ojs/v1/events, and pushed to live subscribers. Event ids are UUIDv7 with the {@code evt_} prefix, so
 * they sort by time and serve as the polling cursor.
 *
 * <p>Limit: the ring holds this instance's events only and is lost on restart; it is an observation window,
 * not an audit log. Job state in the database is always the source of truth.
 */
@ApplicationScoped
public class EventLog {

    private final int capacity;
    private final ArrayDeque<JobEvent> ring;
    private final List<Consumer<JobEvent>> subscribers = new CopyOnWriteArrayList<>();

    public EventLog(SteadfastConfig config) {
        this.capacity = Math.max(100, config.events().bufferSize());
        this.ring = new ArrayDeque<>(capacity);
    }

    /** Records an event of {@code type} about a job; {@code data} gets job_type and queue added first. */
    public void emit(String type, Instant at, String jobId, String jobType, String queue, Map<String, Object> data) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("job_type", jobType);
        d.put("queue", queue);
        d.putAll(data);
        append(new JobEvent("evt_" + JobIds.next(at.toEpochMilli()), type, at, jobId, queue, jobType, d));
    }

    private void append(JobEvent e) {
        synchronized (ring) {
            if (ring.size() == capacity) {
                ring.removeFirst();
            }
            ring.addLast(e);
        }
        for (Consumer<JobEvent> s : subscribers) {
            s.accept(e);
        }
    }

    /** Records an event about a queue (queue.paused, queue.resumed): the queue is its subject. */
    public void emitQueue(String type, Instant at, String queue, Map<String, Object> data) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("queue", queue);
        d.putAll(data);
        append(new JobEvent("evt_" + JobIds.next(at.toEpochMilli()), type, at, queue, queue, null, d));
    }

    /** Events after {@code afterId} (exclusive; null for the oldest kept) matching the filters, oldest first. */
    public Page list(String afterId, Set<String> types, Set<String> queues, Set<String> jobTypes, int limit) {
        List<JobEvent> out = new ArrayList<>(Math.min(limit, 64));
        boolean more = false;
        synchronized (ring) {
            Iterator<JobEvent> it = ring.iterator();
            while (it.hasNext()) {
                JobEvent e = it.next();
                if (afterId != null && e.id().compareTo(afterId) <= 0) {
                    continue;
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
        subscribers.add(s);
    }

    public void unsubscribe(Consumer<JobEvent> s) {
        subscribers.remove(s);
    }

    /** Forgets every event (the reset hook). */
    public void clear() {
        synchronized (ring) {
            ring.clear();
        }
    }
}
