package dev.steadfast.domain.cron;

import dev.steadfast.domain.JobState;

/**
 * The rules of a schedule's runs in order, as the {@code enqueue} overlap policy keeps them (ojs-cron.md 6.1): an
 * occurrence that fires while an earlier run has not finished is enqueued held (pending) rather than skipped, and
 * the earliest held occurrence is released (made available) once the run before it has finished, so runs of one
 * schedule never execute at once and none is lost. Pure: the callers read the states and act on the answers.
 *
 * <p>Limits: a held run is released by the cron firer's next tick after the run before it finished (about
 * {@code steadfast.cron.tick-interval}), not in the transaction of that run's ACK; a held job activated by hand
 * ({@code POST /ojs/v1/jobs/{id}/activate}) runs out of turn.
 */
public final class QueuedRuns {

    /** ojs-cron.md 6.1: implementations SHOULD warn when more than 2 occurrences of one schedule are queued. */
    public static final int WARN_ABOVE = 2;

    private QueuedRuns() {
    }

    /**
     * Whether a run in job state {@code state} still counts as running for the overlap policies: every state
     * before a terminal one (waiting, scheduled, pending, active, retrying). Null (the job is gone) is finished.
     */
    public static boolean unfinished(String state) {
        return JobState.fromWire(state).map(s -> !s.terminal()).orElse(false);
    }

    /** Whether the earliest held occurrence may start, given the state of the run before it (null: gone). */
    public static boolean mayRelease(String runBeforeState) {
        return !unfinished(runBeforeState);
    }

    /** Whether {@code queued} held occurrences of one schedule call for the spec's warning. */
    public static boolean warns(int queued) {
        return queued > WARN_ABOVE;
    }

    /** The warning's text. */
    public static String warning(String schedule, int queued) {
        return "cron schedule '" + schedule + "' (overlap_policy enqueue) has " + queued + " occurrences queued"
                + " behind a run that has not finished (more than " + WARN_ABOVE + ", ojs-cron 6.1): its runs take"
                + " longer than its interval";
    }
}
