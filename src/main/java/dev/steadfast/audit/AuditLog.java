package dev.steadfast.audit;

import dev.steadfast.domain.OjsException;
import dev.steadfast.model.AuditFilter;
import dev.steadfast.model.AuditRow;
import dev.steadfast.store.audit.AuditStore;
import io.quarkus.arc.Arc;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The audit log: {@link #record} appends one entry (the one call a feature makes to have a change recorded; the
 * console's forms and the admin API's changes are recorded for them by {@link AuditRecorder}), {@link #page} reads
 * it newest first in keyset pages. Entries are never changed; {@link AuditPruner} deletes them past
 * steadfast.audit.retention.
 *
 * <p>Scope values are cut to short text (at most {@value #MAX_VALUE} characters, {@value #MAX_ITEMS} items of a
 * list, {@value #MAX_ITEMS} keys; control characters, NUL included, become spaces) so a request can neither bloat
 * the table nor put what PostgreSQL refuses into it.
 */
@ApplicationScoped
public class AuditLog {

    private static final Logger LOG = Logger.getLogger(AuditLog.class);
    static final int MAX_VALUE = 200;
    static final int MAX_ITEMS = 20;

    private final AuditStore store;
    private final Clock clock;
    private final AuditNote note;

    public AuditLog(AuditStore store, Clock clock, AuditNote note) {
        this.store = store;
        this.clock = clock;
        this.note = note;
    }

    /**
     * Notes on the current request's entry that the change touched {@code jobs} jobs; for a service shared by the
     * console and the API. Does nothing outside a request (a scheduled task), where nothing is recorded.
     */
    public void noteJobs(long jobs) {
        if (Arc.container().requestContext().isActive()) {
            note.jobs(jobs);
        }
    }

    /** A page of entries and the cursor of the next (null on the last). */
    public record Page(List<AuditRow> entries, String next) {
    }

    /** Appends {@code e} stamped with the server's clock; fails when the database does. */
    public Uni<Void> record(AuditEntry e) {
        return store.append(clock.instant(), text(e.actor(), 200), e.via(), text(e.action(), 100), scope(e.scope()),
                e.jobs(), e.client() == null ? null : text(e.client(), 100), AuditedRequests.outcome(e.status()),
                e.status()).invoke(id -> LOG.debugf("audit %d: %s %s by %s", id, e.action(), e.scope(), e.actor()))
                .replaceWithVoid();
    }

    /** Entries matching {@code filter}, newest first, {@code limit} at a time, after {@code cursor} (null: first). */
    public Uni<Page> page(AuditFilter filter, String cursor, int limit) {
        Long before = cursor(cursor);
        return store.page(filter, before, limit + 1).map(rows -> rows.size() > limit
                ? new Page(rows.subList(0, limit), Long.toString(rows.get(limit - 1).id()))
                : new Page(rows, null));
    }

    /** Deletes a batch of entries older than the retention at {@code now}; answers how many. */
    public Uni<Integer> pruneBatch(Instant before, int limit) {
        return store.pruneBefore(before, limit);
    }

    static Long cursor(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return null;
        }
        try {
            long id = Long.parseLong(cursor.trim());
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw OjsException.invalidField("cursor", "'cursor' must be the next_cursor of a previous page.",
                "cursor", cursor);
    }

    static Map<String, Object> scope(Map<String, Object> in) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : in.entrySet()) {
            if (out.size() >= MAX_ITEMS) {
                break;
            }
            Object v = e.getValue();
            if (v instanceof Collection<?> c) {
                List<String> items = new ArrayList<>();
                for (Object o : c) {
                    if (items.size() >= MAX_ITEMS) {
                        break;
                    }
                    items.add(text(String.valueOf(o), MAX_VALUE));
                }
                out.put(text(e.getKey(), 50), items);
                if (c.size() > MAX_ITEMS) {
                    out.put(text(e.getKey(), 50) + "_count", c.size());
                }
            } else if (v instanceof Number || v instanceof Boolean) {
                out.put(text(e.getKey(), 50), v);
            } else if (v != null) {
                out.put(text(e.getKey(), 50), text(String.valueOf(v), MAX_VALUE));
            }
        }
        return out;
    }

    static String text(String s, int max) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(Math.min(s.length(), max));
        for (int i = 0; i < s.length() && b.length() < max; i++) {
            char ch = s.charAt(i);
            b.append(Character.isISOControl(ch) ? ' ' : ch);
        }
        return b.toString();
    }
}
