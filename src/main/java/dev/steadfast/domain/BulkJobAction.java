package dev.steadfast.domain;

import dev.steadfast.domain.JobStateMachine.Operation;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What an operator may do to many jobs at once (the console's jobs list: a selection, or everything a filter
 * matches), and from which states, derived from {@link JobStateMachine}. A bulk action never touches a job a
 * worker holds: an {@code active} job is left to its worker (cancel one from its own page, where the operator
 * sees who holds it), so a job that became active while the action ran is not changed under its worker.
 * <ul>
 *   <li>CANCEL: the states {@link Operation#CANCEL} starts from, but {@code active};</li>
 *   <li>RETRY: {@link Operation#RETRY_NOW} (scheduled, retryable run now), {@link Operation#RETRY_DEAD_LETTER}
 *       (dead letters) and {@link Operation#REVIVE} (cancelled and discarded jobs start a new run);</li>
 *   <li>DELETE: every state but {@code active} (a deleted active job would leave its worker reporting on a job
 *       that no longer exists, as the single-job delete refuses too).</li>
 * </ul>
 */
public enum BulkJobAction {
    CANCEL, RETRY, DELETE;

    private static final Set<JobState> HELD = EnumSet.of(JobState.ACTIVE);

    /** The action's name in forms and messages: cancel, retry, delete. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The states the action applies to; a job in any other state is skipped. */
    public Set<JobState> sources() {
        EnumSet<JobState> s = switch (this) {
            case CANCEL -> EnumSet.copyOf(JobStateMachine.sources(Operation.CANCEL));
            case RETRY -> {
                EnumSet<JobState> r = EnumSet.copyOf(JobStateMachine.sources(Operation.RETRY_NOW));
                r.addAll(JobStateMachine.sources(Operation.RETRY_DEAD_LETTER));
                r.addAll(JobStateMachine.sources(Operation.REVIVE));
                yield r;
            }
            case DELETE -> EnumSet.allOf(JobState.class);
        };
        s.removeAll(HELD);
        return Collections.unmodifiableSet(s);
    }

    /**
     * The states the action applies to within a state filter ({@code null}: any state), ordered as the enum is;
     * empty when the filter leaves nothing to act on.
     */
    public Set<JobState> sourcesWithin(JobState filter) {
        EnumSet<JobState> s = EnumSet.noneOf(JobState.class);
        s.addAll(sources());
        if (filter != null) {
            s.retainAll(EnumSet.of(filter));
        }
        return Collections.unmodifiableSet(s);
    }

    public static Optional<BulkJobAction> fromWire(String s) {
        for (BulkJobAction a : values()) {
            if (a.wire().equals(s)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }
}
