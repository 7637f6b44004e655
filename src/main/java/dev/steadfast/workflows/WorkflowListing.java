package dev.steadfast.workflows;

import dev.steadfast.domain.OjsException;
import dev.steadfast.store.workflows.WorkflowFilter;
import dev.steadfast.store.workflows.WorkflowListStore;
import dev.steadfast.store.workflows.WorkflowListStore.Listed;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Browsing workflows newest first with keyset pages: a cursor is the (created_at, id) of the last workflow of the
 * page it continues, opaque to the caller (base64url); a cursor this server did not issue is a 400 naming
 * {@code cursor}. Also answers how many match the filter (ojs-http-binding.md 17.2's {@code total}).
 */
@ApplicationScoped
public class WorkflowListing {

    private final WorkflowListStore store;

    public WorkflowListing(WorkflowListStore store) {
        this.store = store;
    }

    /** A page, how many match in all, and the cursor of the next page (null on the last). */
    public record Page(List<Listed> workflows, long total, String nextCursor) {
    }

    public Uni<Page> page(WorkflowFilter f, String cursor, int limit) {
        Instant at = null;
        UUID id = null;
        if (cursor != null && !cursor.isBlank()) {
            String[] p = decode(cursor.trim());
            at = Instant.parse(p[0]);
            id = UUID.fromString(p[1]);
        }
        return store.list(f, at, id, limit + 1).flatMap(rows -> store.count(f).map(total -> {
            boolean more = rows.size() > limit;
            List<Listed> page = more ? rows.subList(0, limit) : rows;
            return new Page(page, total, more ? encode(page.get(page.size() - 1)) : null);
        }));
    }

    static String encode(Listed w) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((w.createdAt() + "|" + w.id()).getBytes(StandardCharsets.UTF_8));
    }

    static String[] decode(String cursor) {
        try {
            String[] p = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|");
            if (p.length == 2) {
                Instant.parse(p[0]);
                UUID.fromString(p[1]);
                return p;
            }
        } catch (RuntimeException e) {
            // not one of ours
        }
        throw OjsException.invalidField("cursor", "'cursor' is not a cursor this server issued; pass the"
                + " 'next_cursor' of a previous page.", "a next_cursor", cursor);
    }
}
