package dev.steadfast.tools.ledger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a tool saw happen to its jobs, by id: accepted by a PUSH (enqueued), handed out by a FETCH (delivered, how
 * often), and completed by an accepted ACK (how often). From it the checks every load and fault run makes: jobs
 * lost (enqueued, never completed), deliveries beyond the expected number, jobs completed twice. Thread-safe; the
 * counts are exact once the threads recording into it are done.
 *
 * <p>For long runs the ledger can prune: a completed job is then forgotten except for its id, so memory grows by
 * one id per completed job, and a later delivery of it is counted as a duplicate on the spot.
 */
public final class JobLedger {

    private final boolean prune;
    private final Set<String> enqueued = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> acks = new ConcurrentHashMap<>();
    private final AtomicInteger completedCount = new AtomicInteger();
    private final AtomicInteger lateDeliveries = new AtomicInteger();

    public JobLedger() {
        this(false);
    }

    /** With {@code prune}, a completed job's enqueue and deliveries are dropped (long runs). */
    public JobLedger(boolean prune) {
        this.prune = prune;
    }

    /** The server accepted job {@code id}; when pruning, a job already completed (its answer read late) is not added. */
    public void enqueued(String id) {
        if (!(prune && acks.containsKey(id))) {
            enqueued.add(id);
        }
    }

    public void enqueued(Collection<String> ids) {
        ids.forEach(this::enqueued);
    }

    public int enqueuedCount() {
        return enqueued.size();
    }

    /** A copy of the ids enqueued (when pruning: not yet completed). */
    public List<String> enqueuedIds() {
        return new ArrayList<>(enqueued);
    }

    /**
     * A FETCH handed out job {@code id}; answers which delivery of it this is (1 for the first). When pruning, a
     * delivery of a job completed before counts as a duplicate and answers {@code Integer.MAX_VALUE / 2}.
     */
    public int delivered(String id) {
        if (prune && acks.containsKey(id)) {
            lateDeliveries.incrementAndGet();
            return Integer.MAX_VALUE / 2;
        }
        return deliveries.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
    }

    /**
     * An ACK of job {@code id} was accepted. Answers how many jobs are completed now, counting this one, or 0 when
     * this job had been completed before (then it counts as completed twice).
     */
    public int completed(String id) {
        if (acks.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet() > 1) {
            return 0;
        }
        if (prune) {
            enqueued.remove(id);
            deliveries.remove(id);
        }
        return completedCount.incrementAndGet();
    }

    public boolean isCompleted(String id) {
        return acks.containsKey(id);
    }

    /** Jobs with at least one accepted ACK. */
    public int completedCount() {
        return completedCount.get();
    }

    /** Enqueued jobs without an accepted ACK, in no order. */
    public List<String> waiting() {
        List<String> out = new ArrayList<>();
        for (String id : enqueued) {
            if (!acks.containsKey(id)) {
                out.add(id);
            }
        }
        return out;
    }

    /** Enqueued but never completed. */
    public int lost() {
        return waiting().size();
    }

    /** Deliveries beyond {@code expected} per job, plus delivered jobs this run never enqueued. */
    public int duplicates(int expected) {
        int n = lateDeliveries.get();
        for (Map.Entry<String, AtomicInteger> e : deliveries.entrySet()) {
            n += Math.max(0, e.getValue().get() - expected);
            if (!enqueued.contains(e.getKey())) {
                n++;
            }
        }
        return n;
    }

    /** Jobs whose ACK was accepted more than once. */
    public int completedTwice() {
        return (int) acks.values().stream().filter(c -> c.get() > 1).count();
    }

    /** All deliveries recorded. */
    public long deliveries() {
        return deliveries.values().stream().mapToLong(AtomicInteger::get).sum() + lateDeliveries.get();
    }

    /** Jobs delivered more than once. */
    public int redelivered() {
        return (int) deliveries.values().stream().filter(c -> c.get() > 1).count();
    }

    /** Completed jobs that were delivered exactly {@code n} times. */
    public int completedAfterDeliveries(int n) {
        int count = 0;
        for (String id : acks.keySet()) {
            AtomicInteger c = deliveries.get(id);
            if (c != null && c.get() == n) {
                count++;
            }
        }
        return count;
    }
}
