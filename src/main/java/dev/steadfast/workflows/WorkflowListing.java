package dev.steadfast.workflows;

import dev.steadfast.domain.KeysetCursor;
import dev.steadfast.model.WorkflowFilter;
import dev.steadfast.store.workflows.WorkflowListStore;
import dev.steadfast.store.workflows.WorkflowListStore.Listed;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

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
        KeysetCursor after = KeysetCursor.decode("cursor", cursor);
        return store.list(f, after == null ? null : after.at(), after == null ? null : after.id(), limit + 1).flatMap(rows -> store.count(f).map(total -> {
            boolean more = rows.size() > limit;
            List<Listed> page = more ? rows.subList(0, limit) : rows;
            Listed last = page.isEmpty() ? null : page.get(page.size() - 1);
            return new Page(page, total, more ? new KeysetCursor(last.createdAt(), last.id()).encode() : null);
        }));
    }

}
