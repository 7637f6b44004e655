package dev.steadfast.console.jobs;

import dev.steadfast.console.Format;
import dev.steadfast.store.JobQueryStore;
import dev.steadfast.store.JobSummary;
import java.time.Instant;
import java.util.List;

/** One job in a listing, formatted for display (the args as a preview of their JSON text). */
record JobLine(String id, String href, String type, String queue, String state, boolean deadLetter,
                      String attempts, int priority, List<String> tags, String created, String createdIso,
                      String createdAgo, String runAt, String errorType, String errorMessage, String args) {

    static JobLine of(JobSummary j, Instant now) {
        String runAt = switch (j.state()) {
            case SCHEDULED, RETRYABLE -> j.runAt() == null ? "" : Format.relative(j.runAt(), now);
            default -> "";
        };
        return new JobLine(j.id().toString(), "/admin/jobs/" + j.id(), j.type(), j.queue(), j.state().wire(),
                j.deadLetter(), j.attempt() + "/" + j.maxAttempts() + (j.run() > 1 ? " (run " + j.run() + ")" : ""),
                j.priority(), j.tags(), Format.time(j.createdAt()), Format.iso(j.createdAt()),
                Format.relative(j.createdAt(), now), runAt, j.errorType() == null ? "" : j.errorType(),
                j.errorMessage() == null ? "" : j.errorMessage(), preview(j.argsPreview()));
    }

    /** The args' JSON text as the listing shows it: cut with an ellipsis past {@link JobQueryStore#ARGS_PREVIEW}. */
    static String preview(String args) {
        if (args == null) {
            return "";
        }
        return args.length() > JobQueryStore.ARGS_PREVIEW ? args.substring(0, JobQueryStore.ARGS_PREVIEW) + "…" : args;
    }
}
