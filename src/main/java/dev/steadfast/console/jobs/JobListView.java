package dev.steadfast.console.jobs;

import dev.steadfast.domain.JobState;
import java.util.Arrays;
import java.util.List;

/**
 * The jobs page: the filter as the operator typed it (echoed back into the form), the choices for its selects,
 * one page of jobs and the links to the neighbouring pages (keyset cursors).
 */
public record JobListView(JobListQuery query, List<String> states, List<String> queueNames, List<JobLine> jobs,
                          String nextHref, String prevHref, String firstHref, String message) {

    static List<String> stateNames() {
        return Arrays.stream(JobState.values()).map(JobState::wire).toList();
    }
}
