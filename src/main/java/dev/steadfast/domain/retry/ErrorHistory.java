package dev.steadfast.domain.retry;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Appends to a job's error history, oldest first, while bounding its size
 * (OJS retry spec section 10.1; RET-14, RET-15).
 *
 * <p>Guarantees: the newest entries win; at least {@link #MIN_KEEP} (10) are always preserved, even
 * if a smaller {@code keep} is asked for. Entries of all runs share one budget, so a re-enqueued job
 * keeps its previous run's latest errors until newer ones push them out. Lists are never mutated;
 * results are unmodifiable.
 *
 * <p>Generic in the entry type. The server appends in SQL (store.JobSql.RECORD_FAILURES keeps the newest
 * {@link #kept} entries), and HotPathTest checks that statement against {@link #append}, the rule's one
 * definition.
 */
public final class ErrorHistory {

    /** Spec floor: at least the 10 most recent entries are kept (RET-15). */
    public static final int MIN_KEEP = 10;
    /** Steadfast default history length. */
    public static final int DEFAULT_KEEP = 50;

    private ErrorHistory() {
    }

    /**
     * Returns a new list: {@code history} plus {@code e} at the end, trimmed to the most recent
     * {@code max(keep, MIN_KEEP)} entries. A null {@code history} counts as empty.
     */
    public static <T> List<T> append(List<T> history, T e, int keep) {
        Objects.requireNonNull(e, "entry");
        List<T> all = new ArrayList<>(history == null ? List.of() : history);
        all.add(e);
        int limit = kept(keep);
        int from = Math.max(0, all.size() - limit);
        return List.copyOf(all.subList(from, all.size()));
    }

    /** How many entries a history configured to keep {@code keep} really keeps: never fewer than MIN_KEEP. */
    public static int kept(int keep) {
        return Math.max(keep, MIN_KEEP);
    }

    /** {@link #append(List, ErrorEntry, int)} with {@link #DEFAULT_KEEP}. */
    public static List<ErrorEntry> append(List<ErrorEntry> history, ErrorEntry e) {
        return append(history, e, DEFAULT_KEEP);
    }
}
