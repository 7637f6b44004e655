package dev.steadfast.console.jobs;

import dev.steadfast.console.Format;
import dev.steadfast.console.jobs.JobDetailView.ErrorItem;
import dev.steadfast.console.jobs.JobDetailView.Moment;
import dev.steadfast.domain.JobState;
import dev.steadfast.model.JobRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A job's life in order: created, each failed attempt from the error history (of every run), the current
 * attempt's start, how it ended, and what is still due. A failure entry marks when an attempt ended; the start of
 * an earlier attempt is not recorded, so only the current attempt shows one.
 */
final class JobTimeline {

    private JobTimeline() {
    }

    private record At(Instant at, Moment moment) {
    }

    static List<Moment> of(JobRow j, List<ErrorItem> errors, Instant now) {
        List<At> out = new ArrayList<>();
        add(out, j.createdAt(), "Created", "in queue " + j.queue(), "", now);
        if (j.scheduledAt() != null && !j.scheduledAt().equals(j.createdAt())) {
            add(out, j.scheduledAt(), "Scheduled", "to run from this time", "", now);
        }
        for (ErrorItem e : errors) {
            Instant at = e.iso().isEmpty() ? null : Instant.parse(e.iso());
            add(out, at, "Run " + e.run() + ", attempt " + e.attempt() + " failed",
                    (e.type().isEmpty() ? "" : e.type() + ": ") + e.message(), "bad", now);
        }
        if (j.run() > 1 && j.enqueuedAt() != null) {
            add(out, j.enqueuedAt(), "Re-enqueued as run " + j.run(), "attempts start over", "warn", now);
        } else if (j.enqueuedAt() != null && !j.enqueuedAt().equals(j.createdAt())) {
            add(out, j.enqueuedAt(), "Became available", "", "", now);
        }
        if (j.startedAt() != null) {
            add(out, j.startedAt(), "Attempt " + j.attempt() + " started",
                    j.leaseOwner() == null ? "" : "by worker " + j.leaseOwner(), "", now);
        }
        if (j.state() == JobState.COMPLETED) {
            add(out, j.completedAt(), "Completed", "", "ok", now);
        } else if (j.state() == JobState.CANCELLED) {
            add(out, j.cancelledAt(), "Cancelled", "", "warn", now);
        } else if (j.state() == JobState.DISCARDED) {
            add(out, j.discardedAt(), j.deadLetter() ? "Dead-lettered" : "Discarded", "no attempts left", "bad", now);
        } else if ((j.state() == JobState.RETRYABLE || j.state() == JobState.SCHEDULED) && j.runAt() != null) {
            add(out, j.runAt(), "Next attempt due", "attempt " + (j.attempt() + 1), "", now);
        }
        out.sort(Comparator.comparing(At::at));
        return out.stream().map(At::moment).toList();
    }

    private static void add(List<At> out, Instant at, String label, String detail, String tone, Instant now) {
        if (at != null) {
            out.add(new At(at, new Moment(Format.time(at), Format.iso(at), label, detail, tone, at.isAfter(now))));
        }
    }
}
