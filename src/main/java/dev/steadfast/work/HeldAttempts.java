package dev.steadfast.work;

import dev.steadfast.store.Attempt;
import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.quarkus.cache.CaffeineCache;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The attempts this instance handed out with FETCH and that are not answered yet, so that a FAIL can decide its
 * outcome at once and write it in one statement, without first reading the job. Only a shortcut: a FAIL that
 * finds nothing here (another instance claimed the job, or this one restarted or forgot it) reads the attempt
 * from the database, and every write is guarded by the attempt it was decided for, so a stale entry can never
 * change a job that moved on. Bounded: the {@value #CACHE} cache (quarkus-cache) holds at most its
 * {@code maximum-size} (application.properties) and evicts by Caffeine's policy beyond that.
 */
@ApplicationScoped
class HeldAttempts {

    static final String CACHE = "steadfast-held-attempts";

    private final CaffeineCache held;

    public HeldAttempts(@CacheName(CACHE) Cache held) {
        this.held = held.as(CaffeineCache.class);
    }

    public void put(Attempt a) {
        held.put(a.id(), CompletableFuture.completedFuture(a));
    }

    /** The attempt handed out for job {@code id}, or null. */
    public Attempt get(UUID id) {
        CompletableFuture<Attempt> a = held.getIfPresent(id);
        return a == null ? null : a.getNow(null); // every entry is put completed
    }

    public void forget(UUID id) {
        held.invalidate(id).subscribe().with(done -> { }); // Caffeine's invalidation, done at subscription
    }
}
