package dev.steadfast.console.jobs;

import dev.steadfast.domain.JobState;
import java.util.Arrays;
import java.util.List;

/**
 * The jobs page: the filter as the operator typed it (echoed back into the form), the choices for its selects,
 * the state tabs with their counts, one page of jobs and the links to the neighbouring pages (keyset cursors).
 *
 * @param countsNote what the tab counts cover and how old they are
 * @param searchNote where a text search stopped on this page (jobs without a search index yet are read a few
 *                   thousand per page) and that the next page goes on from there; null when it did not
 */
public record JobListView(JobListQuery query, List<String> states, List<String> queueNames, List<Tab> tabs,
                          String countsNote, List<JobLine> jobs, String nextHref, String prevHref, String firstHref,
                          String message, String searchNote) {

    /** One state tab ({@code state} "" for all), its count as shown, and whether it is the one open. */
    public record Tab(String state, String label, String count, String href, boolean current) {
    }

    static List<String> stateNames() {
        return Arrays.stream(JobState.values()).map(JobState::wire).toList();
    }
}
