package dev.steadfast.console.errors;

import dev.steadfast.console.Format;
import dev.steadfast.errorgroups.ErrorGroupService;
import dev.steadfast.store.JobSummary;
import java.time.Instant;
import java.util.List;

/**
 * One error group's page: the group as the list shows it, how many of its jobs are in which state, what each
 * action would touch, and a page of its jobs linking to their pages.
 */
public record ErrorGroupView(String id, ErrorGroupsView.Line group, String jobs, String retryable,
                             String deadLetters, String discarded, String other, long retryCount,
                             long discardCount, long deleteCount, List<JobLine> lines, String nextHref,
                             String firstHref, boolean paged) {

    /** One job of the group. */
    public record JobLine(String id, String href, String type, String queue, String state, boolean deadLetter,
                          String attempts, String created, String createdIso, String createdAgo, String error) {
    }

    static ErrorGroupView of(ErrorGroupService.Detail d, boolean paged, Instant now) {
        ErrorGroupService.Counts c = d.counts();
        String base = "/admin/errors/" + d.group().id();
        List<JobLine> lines = d.jobs().stream().map(j -> line(j, now)).toList();
        return new ErrorGroupView(d.group().id(), ErrorGroupsView.line(d.group(), now), Format.count(c.jobs()),
                Format.count(c.retryable()), Format.count(c.deadLetters()), Format.count(c.discarded()),
                Format.count(c.other()), c.retry(), c.discard(), c.delete(), lines,
                d.next() == null ? null : base + "?before=" + d.next(), base, paged);
    }

    private static JobLine line(JobSummary j, Instant now) {
        return new JobLine(j.id().toString(), "/admin/jobs/" + j.id(), j.type(), j.queue(),
                j.deadLetter() ? "dead" : j.state().wire(), j.deadLetter(), j.attempt() + " / " + j.maxAttempts(),
                Format.time(j.createdAt()), Format.iso(j.createdAt()), Format.relative(j.createdAt(), now),
                j.errorMessage() == null ? "" : j.errorMessage());
    }
}
