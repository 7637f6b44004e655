package dev.steadfast.store;

import dev.steadfast.domain.JobState;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which table holds a job in each state (V18__live_jobs_and_history.sql): the live table {@code jobs} holds the states
 * a job can still leave, the history {@code job_history} the terminal ones of {@link JobState#terminal()}. The CHECK
 * constraints of both tables list exactly these sets (LiveStatesTest compares them with the database).
 */
final class LiveStates {

    private LiveStates() {
    }

    static final Set<JobState> FINISHED = Arrays.stream(JobState.values()).filter(JobState::terminal)
            .collect(Collectors.toCollection(() -> EnumSet.noneOf(JobState.class)));

    static final Set<JobState> LIVE = EnumSet.complementOf(EnumSet.copyOf(FINISHED));

    /** The table a job in {@code state} is in. */
    static String tableOf(JobState state) {
        return state.terminal() ? "job_history" : "jobs";
    }
}
