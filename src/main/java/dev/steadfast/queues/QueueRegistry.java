package dev.steadfast.queues;

import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes sure every queue a job is enqueued into has a row in the queues table (its created_at and pause switch),
 * writing only the first time this instance sees the queue; the insert itself is idempotent, so several
 * instances registering the same queue is harmless.
 */
@ApplicationScoped
public class QueueRegistry {

    private final JobStore store;
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    public QueueRegistry(JobStore store) {
        this.store = store;
    }

    /** Registers every queue of {@code names} this instance has not seen yet, in one statement. */
    public Uni<Void> ensureAll(Collection<String> names, Instant now) {
        List<String> unseen = names.stream().filter(q -> !known.contains(q)).toList();
        if (unseen.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return store.registerQueues(unseen, now).invoke(() -> known.addAll(unseen));
    }

    /** Forgets what this instance has seen (the reset hook empties the table). */
    public void forget() {
        known.clear();
    }
}
