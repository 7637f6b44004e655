package dev.steadfast.domain.workflow;

import dev.steadfast.domain.JobState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What finished jobs mean for their workflow (ojs-workflows.md 4-9), as a pure function of the workflow's type
 * and state and its members' states. The caller holds the workflow's row lock, so the decision sees every member
 * as of one instant, and applies it in the same transaction; deciding again on the result changes nothing
 * (idempotent), which is what lets the same function serve an ACK, a FAIL and the advancer's sweep.
 * <ul>
 *   <li>chain: when step n completes, step n+1 is enqueued with the results of steps 0..n; when a step fails or is
 *   cancelled, the workflow fails and the steps still waiting are cancelled; when the last step completes, it
 *   completes.</li>
 *   <li>group: when every job has finished, completed if all completed, failed otherwise.</li>
 *   <li>batch: when every job has finished, on_complete and (on_success if all completed, else on_failure) are
 *   enqueued with the results of all jobs, the callback that does not apply is cancelled; when the enqueued
 *   callbacks have finished, completed if they all completed, failed otherwise.</li>
 *   <li>a terminal workflow (cancelled, or failed) only records outcomes.</li>
 * </ul>
 */
public final class WorkflowRules {

    private WorkflowRules() {
    }

    public static Advance advance(WorkflowType type, WorkflowState state, List<Member> members) {
        Map<UUID, Outcome> outcomes = new LinkedHashMap<>();
        Map<UUID, Outcome> now = new LinkedHashMap<>();
        for (Member m : members) {
            Outcome o = m.recorded();
            if (o == null && m.jobState() != null) {
                o = Outcome.of(m.jobState()).orElse(null);
                if (o != null) {
                    outcomes.put(m.jobId(), o);
                }
            }
            now.put(m.jobId(), o);
        }
        Decision d = new Decision(state, outcomes, now);
        if (!state.terminal()) {
            switch (type) {
                case CHAIN -> d.chain(steps(members));
                case GROUP -> d.group(steps(members));
                case BATCH -> d.batch(steps(members), members);
                default -> throw new IllegalStateException(type.name());
            }
        }
        return new Advance(d.state, d.outcomes, d.activate, d.cancel);
    }

    /**
     * The members a workflow enqueues when it starts: a chain's first step, a group's or batch's jobs (never a
     * callback), those still waiting. A nested workflow's outer workflow starts it (and passes on the results its
     * own activation carried); a top-level workflow starts them in the creating transaction instead.
     */
    public static List<UUID> initial(WorkflowType type, List<Member> members) {
        List<Member> steps = steps(members);
        List<Member> first = type == WorkflowType.CHAIN ? steps.subList(0, Math.min(1, steps.size())) : steps;
        return first.stream().filter(m -> m.recorded() == null && m.jobState() == JobState.PENDING)
                .map(Member::jobId).toList();
    }

    private static List<Member> steps(List<Member> members) {
        List<Member> steps = new ArrayList<>();
        for (Member m : members) {
            if (m.role() == MemberRole.STEP) {
                steps.add(m);
            }
        }
        steps.sort(Comparator.comparingInt(Member::position));
        return steps;
    }

    private static final class Decision {
        WorkflowState state;
        final Map<UUID, Outcome> outcomes;
        final Map<UUID, Outcome> now;
        final List<Advance.Activation> activate = new ArrayList<>();
        final List<UUID> cancel = new ArrayList<>();

        Decision(WorkflowState state, Map<UUID, Outcome> outcomes, Map<UUID, Outcome> now) {
            this.state = state;
            this.outcomes = outcomes;
            this.now = now;
        }

        void chain(List<Member> steps) {
            for (int i = 0; i < steps.size(); i++) {
                Member s = steps.get(i);
                Outcome o = now.get(s.jobId());
                if (o == Outcome.COMPLETED) {
                    continue;
                }
                if (o != null) {
                    state = WorkflowState.FAILED;
                    steps.subList(i + 1, steps.size()).forEach(this::cancelIfWaiting);
                } else if (s.jobState() == JobState.PENDING) {
                    activate.add(new Advance.Activation(s.jobId(), ids(steps.subList(0, i))));
                }
                return;
            }
            state = WorkflowState.COMPLETED;
        }

        void group(List<Member> steps) {
            if (allFinished(steps)) {
                state = allCompleted(steps) ? WorkflowState.COMPLETED : WorkflowState.FAILED;
            }
        }

        void batch(List<Member> steps, List<Member> members) {
            if (!allFinished(steps)) {
                return;
            }
            Set<MemberRole> fire = EnumSet.of(MemberRole.ON_COMPLETE,
                    allCompleted(steps) ? MemberRole.ON_SUCCESS : MemberRole.ON_FAILURE);
            List<Member> fired = new ArrayList<>();
            for (Member m : members) {
                if (m.role() == MemberRole.STEP) {
                    continue;
                }
                if (!fire.contains(m.role())) {
                    cancelIfWaiting(m);
                    continue;
                }
                fired.add(m);
                if (now.get(m.jobId()) == null && m.jobState() == JobState.PENDING) {
                    activate.add(new Advance.Activation(m.jobId(), ids(steps)));
                }
            }
            if (allFinished(fired)) {
                state = allCompleted(fired) ? WorkflowState.COMPLETED : WorkflowState.FAILED;
            }
        }

        private void cancelIfWaiting(Member m) {
            if (now.get(m.jobId()) == null && m.jobState() == JobState.PENDING) {
                cancel.add(m.jobId());
                outcomes.put(m.jobId(), Outcome.CANCELLED);
                now.put(m.jobId(), Outcome.CANCELLED);
            }
        }

        private boolean allFinished(List<Member> ms) {
            return ms.stream().allMatch(m -> now.get(m.jobId()) != null);
        }

        private boolean allCompleted(List<Member> ms) {
            return ms.stream().allMatch(m -> now.get(m.jobId()) == Outcome.COMPLETED);
        }

        private static List<UUID> ids(List<Member> ms) {
            return ms.stream().map(Member::jobId).toList();
        }
    }
}
