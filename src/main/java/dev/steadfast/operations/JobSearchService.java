package dev.steadfast.operations;

import dev.steadfast.domain.KeysetCursor;
import dev.steadfast.domain.OjsException;
import dev.steadfast.model.JobFilter;
import dev.steadfast.store.JobQueryStore;
import dev.steadfast.store.JobSummary;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Browsing jobs: a filter, an order (created_at newest or oldest first) and keyset cursors both ways. A cursor
 * is the (created_at, id) of the row it continues from, opaque to the caller; "after" continues in the page's
 * order, "before" goes back, and going back past the start lands on the first page.
 */
@ApplicationScoped
public class JobSearchService {

    /** Shortest text search: the trigram index needs three characters to narrow anything down. */
    public static final int MIN_TEXT = 3;
    public static final int MAX_TEXT = 200;

    private final JobQueryStore store;

    public JobSearchService(JobQueryStore store) {
        this.store = store;
    }

    /**
     * A page of jobs and the cursors that continue it (null when there is nothing that way). {@code searchedTo} is
     * set when a text search stopped short on this page (JobQueryStore.Listing): every match created up to that
     * instant (in the page's order) is on it, and {@code nextCursor} goes on from there, so a page may hold fewer
     * jobs than asked, or none, and still have a next one.
     */
    public record JobPage(List<JobSummary> jobs, String nextCursor, String prevCursor, Instant searchedTo) {
    }

    public Uni<JobPage> page(JobFilter f, boolean ascending, String after, String before, int limit) {
        checkText(f.text());
        KeysetCursor b = KeysetCursor.decode("before", before);
        if (b != null) {
            KeysetCursor c = b;
            return store.list(f, !ascending, c.at(), c.id(), limit + 1).flatMap(listing -> {
                List<JobSummary> rows = listing.jobs();
                boolean more = rows.size() > limit;
                if (!more && listing.reach() == null) {
                    return page(f, ascending, null, null, limit);
                }
                List<JobSummary> page = new ArrayList<>(more ? rows.subList(0, limit) : rows);
                Collections.reverse(page);
                String prev = more ? cursorOf(page.get(0)) : cursorOf(listing.reach());
                String next = page.isEmpty() ? new KeysetCursor(c.at(), c.id()).encode()
                        : cursorOf(page.get(page.size() - 1));
                return Uni.createFrom().item(new JobPage(page, next, prev, more ? null : listing.reach().at()));
            });
        }
        KeysetCursor c = KeysetCursor.decode("after", after);
        return store.list(f, ascending, c == null ? null : c.at(), c == null ? null : c.id(), limit + 1).map(listing -> {
            List<JobSummary> rows = listing.jobs();
            boolean more = rows.size() > limit;
            List<JobSummary> page = more ? rows.subList(0, limit) : rows;
            boolean stopped = !more && listing.reach() != null;
            String next = more ? cursorOf(page.get(page.size() - 1)) : stopped ? cursorOf(listing.reach()) : null;
            String prev = c == null || page.isEmpty() ? null : cursorOf(page.get(0));
            return new JobPage(page, next, prev, stopped ? listing.reach().at() : null);
        });
    }

    public static void checkText(String text) {
        if (text != null && (text.length() < MIN_TEXT || text.length() > MAX_TEXT)) {
            throw OjsException.invalidField("q", "Search text must be " + MIN_TEXT + " to " + MAX_TEXT
                    + " characters long (or a job id).", MIN_TEXT + ".." + MAX_TEXT + " characters", text);
        }
    }

    private static String cursorOf(JobSummary j) {
        return new KeysetCursor(j.createdAt(), j.id()).encode();
    }

    private static String cursorOf(JobQueryStore.Reach r) {
        return new KeysetCursor(r.at(), r.id()).encode();
    }
}
