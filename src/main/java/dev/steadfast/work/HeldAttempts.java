package dev.steadfast.work;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.steadfast.store.Attempt;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The attempts this instance handed out with FETCH and that are not answered yet, so that a FAIL can decide its
 * outcome at once and write it in one statement, without first reading the job. Only a shortcut: a FAIL that
 * finds nothing here (another instance claimed the job, or this one restarted or forgot it) reads the attempt
 * from the database, and every write is guarded by the attempt it was decided for, so a stale entry can never
 * change a job that moved on. Bounded: at most {@code steadfast.fetch.held-attempts} entries, evicted by
 * Caffeine's policy beyond that.
 *
 * <p>A Caffeine cache built here rather than a quarkus-cache one: every job writes it twice (a put at FETCH, an
 * invalidation at ACK or FAIL), and Caffeine hands the upkeep after a write to an executor, by default the common
 * fork-join pool, so every write woke a thread of that pool. In W4 (one FAIL per job) that was 5.6% of the server's
 * CPU samples in Caffeine and quarkus-cache's wrappers (context propagation, a completed future per entry), 3.3% in
 * waking the pool's threads alone; quarkus-cache does not let the executor be chosen. Here the upkeep runs on the
 * writing thread ({@code executor(Runnable::run)}), which Caffeine documents for this: it is a few
 * non-blocking steps, done under a try-lock by whichever writer finds it due.
 */
@ApplicationScoped
class HeldAttempts {

    private final Cache<UUID, Attempt> held;

    HeldAttempts(FetchConfig config) {
        this.held = Caffeine.newBuilder().maximumSize(config.heldAttempts()).executor(Runnable::run).build();
    }

    public void put(Attempt a) {
        held.put(a.id(), a);
    }

    /** The attempt handed out for job {@code id}, or null. */
    public Attempt get(UUID id) {
        return held.getIfPresent(id);
    }

    public void forget(UUID id) {
        held.invalidate(id);
    }
}
