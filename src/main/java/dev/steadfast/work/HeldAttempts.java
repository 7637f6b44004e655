package dev.steadfast.work;

import dev.steadfast.store.Attempt;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The attempts this instance handed out with FETCH and that are not answered yet, so that a FAIL can decide its
 * outcome at once and write it in one statement, without first reading the job. Only a shortcut: a FAIL that
 * finds nothing here (another instance claimed the job, or this one restarted or forgot it) reads the attempt
 * from the database, and every write is guarded by the attempt it was decided for, so a stale entry can never
 * change a job that moved on. Bounded: the oldest entries are forgotten first.
 */
@ApplicationScoped
public class HeldAttempts {

    static final int MAX_ENTRIES = 20_000;

    private final Map<UUID, Attempt> held = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, Attempt> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    public synchronized void put(Attempt a) {
        held.put(a.id(), a);
    }

    public synchronized Attempt get(UUID id) {
        return held.get(id);
    }

    public synchronized void forget(UUID id) {
        held.remove(id);
    }
}
