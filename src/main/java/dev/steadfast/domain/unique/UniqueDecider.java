package dev.steadfast.domain.unique;

import dev.steadfast.domain.JobState;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The conflict decision of ojs-unique-jobs.md sections 5 to 7, as a pure function of the policy, the jobs that
 * already carry the key, and the instant. A holder counts when it is in one of the policy's states AND (no period,
 * or its {@code created_at + period} is still ahead of {@code now}) (7.4); the newest counting holder is the one
 * reported. {@code replace} cancels every counting holder that may still be cancelled (including an active one:
 * the store does this atomically, under the key's lock, which 5.2 allows for strong uniqueness); a counting holder
 * already in a terminal state stays as it is and the new job is inserted beside it.
 */
public final class UniqueDecider {

    private UniqueDecider() {
    }

    public static UniqueDecision decide(UniquePolicy policy, List<UniqueHolder> holders, Instant now) {
        List<UniqueHolder> counting = holders.stream().filter(h -> counts(policy, h, now))
                .sorted(Comparator.comparing(UniqueHolder::createdAt).reversed()).toList();
        if (counting.isEmpty()) {
            return new UniqueDecision.Insert();
        }
        UniqueHolder newest = counting.get(0);
        return switch (policy.onConflict()) {
            case REJECT -> new UniqueDecision.Reject(newest);
            case IGNORE -> new UniqueDecision.Ignore(newest);
            case REPLACE -> new UniqueDecision.Replace(cancellable(counting), null);
            case REPLACE_EXCEPT_SCHEDULE -> new UniqueDecision.Replace(cancellable(counting),
                    newest.state() == JobState.SCHEDULED ? newest.runAt() : null);
        };
    }

    /** Whether {@code h} holds the key against a new job with {@code policy} at {@code now}. */
    public static boolean counts(UniquePolicy policy, UniqueHolder h, Instant now) {
        return policy.states().contains(h.state())
                && (policy.period() == null || h.createdAt().plus(policy.period()).isAfter(now));
    }

    private static List<UniqueHolder> cancellable(List<UniqueHolder> counting) {
        return counting.stream().filter(h -> !h.state().terminal()).toList();
    }
}
