package dev.steadfast.console.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.console.Format;
import dev.steadfast.console.Links;
import dev.steadfast.console.jobs.JobDetailView.Actions;
import dev.steadfast.console.jobs.JobDetailView.ErrorItem;
import dev.steadfast.console.jobs.JobDetailView.Field;
import dev.steadfast.console.jobs.JobDetailView.ProgressLine;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.Progress;
import dev.steadfast.model.JobRow;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Builds the {@link JobDetailView} of a job row: formatting only, no I/O. */
@ApplicationScoped
class JobDetails {

    private final ObjectMapper json;

    public JobDetails(ObjectMapper json) {
        this.json = json;
    }

    /** {@code progress}: the report visible for the job's current attempt (Progress.visible), or null. */
    JobDetailView of(JobRow j, Progress progress, Instant now) {
        List<ErrorItem> errors = errors(j.errorsJson());
        String nextRetry = (j.state() == JobState.RETRYABLE || j.state() == JobState.SCHEDULED) && j.runAt() != null
                ? Format.time(j.runAt()) + " UTC (" + Format.relative(j.runAt(), now) + ")" : null;
        return new JobDetailView(j.id().toString(), j.type(), j.queue(), j.state().wire(), j.deadLetter(),
                envelope(j, now), pretty(j.argsJson()), pretty(j.metaJson()), pretty(j.resultJson()),
                pretty(j.extensionsJson()), JobTimeline.of(j, errors, now), newestFirst(errors), nextRetry,
                RetryPreviews.of(json, j.retryPolicyJson()), actions(j),
                Links.to("/admin/jobs").with("queue", j.queue()).toString(), progress(j, progress, now));
    }

    /** The progress panel: the reported one, an empty one for an active job still silent, otherwise none. */
    private ProgressLine progress(JobRow j, Progress p, Instant now) {
        if (p == null) {
            return j.state() == JobState.ACTIVE
                    ? new ProgressLine(false, "", "", "", "", "", "", "", "attempt " + j.attempt()) : null;
        }
        String value = p.value() == null ? "" : String.format(Locale.ROOT, "%.4f", p.value());
        return new ProgressLine(true, value, p.value() == null ? "" : Format.percent(p.value()),
                p.message() == null ? "" : p.message(), p.dataJson() == null ? "" : pretty(p.dataJson()),
                p.checkpointJson() == null ? "" : pretty(p.checkpointJson()), stamp(p.updatedAt(), now),
                Format.iso(p.updatedAt()), "attempt " + p.attempt() + (p.run() > 1 ? " of run " + p.run() : ""));
    }

    private static List<Field> envelope(JobRow j, Instant now) {
        List<Field> f = new ArrayList<>();
        f.add(new Field("State", j.state().wire() + (j.deadLetter() ? " (dead letter)" : "")));
        f.add(new Field("Attempt", j.attempt() + " of " + j.maxAttempts() + (j.snoozes() > 0 ? ", "
                + j.snoozes() + " snoozed" : "")));
        f.add(new Field("Run", String.valueOf(j.run())));
        f.add(new Field("Priority", String.valueOf(j.priority())));
        f.add(new Field("Tags", j.tags().isEmpty() ? "—" : String.join(", ", j.tags())));
        f.add(new Field("Created", stamp(j.createdAt(), now)));
        add(f, "Enqueued", stamp(j.enqueuedAt(), now));
        add(f, "Scheduled for", stamp(j.scheduledAt(), now));
        add(f, "Started", stamp(j.startedAt(), now));
        add(f, "Completed", stamp(j.completedAt(), now));
        add(f, "Cancelled", stamp(j.cancelledAt(), now));
        add(f, "Discarded", stamp(j.discardedAt(), now));
        add(f, "Expires", stamp(j.expiresAt(), now));
        if (j.state() == JobState.ACTIVE) {
            add(f, "Worker", j.leaseOwner());
            add(f, "Lease expires", stamp(j.leaseExpiresAt(), now));
            add(f, "Deadline", stamp(j.executionDeadline(), now));
        }
        f.add(new Field("Timeout", j.timeoutMs() == null ? "—" : Format.duration(Duration.ofMillis(j.timeoutMs()))));
        f.add(new Field("Visibility timeout", Format.duration(Duration.ofMillis(j.visibilityTimeoutMs()))));
        return f;
    }

    private static List<ErrorItem> newestFirst(List<ErrorItem> errors) {
        List<ErrorItem> out = new ArrayList<>(errors);
        Collections.reverse(out);
        return out;
    }

    private static void add(List<Field> f, String label, String value) {
        if (value != null && !value.isEmpty()) {
            f.add(new Field(label, value));
        }
    }

    private static String stamp(Instant i, Instant now) {
        return i == null ? null : Format.time(i) + " UTC (" + Format.relative(i, now) + ")";
    }

    static Actions actions(JobRow j) {
        boolean cancel = JobStateMachine.sources(Operation.CANCEL).contains(j.state());
        boolean delete = j.state() != JobState.ACTIVE;
        if (j.deadLetter()) {
            return new Actions(true, "Re-enqueue from dead letter",
                    "Starts run " + (j.run() + 1) + " with fresh attempts; the error history is kept.", cancel, delete);
        }
        if (JobStateMachine.sources(Operation.REVIVE).contains(j.state())) {
            return new Actions(true, "Re-enqueue as a new run",
                    "Starts run " + (j.run() + 1) + " with fresh attempts; the error history is kept.", cancel, delete);
        }
        if (JobStateMachine.sources(Operation.RETRY_NOW).contains(j.state())) {
            return new Actions(true, "Retry now", "Makes the job available at once instead of at its due time.",
                    cancel, delete);
        }
        return new Actions(false, "", "", cancel, delete);
    }

    private List<ErrorItem> errors(String errorsJson) {
        List<ErrorItem> out = new ArrayList<>();
        JsonNode arr = tree(errorsJson);
        if (arr == null || !arr.isArray()) {
            return out;
        }
        for (JsonNode e : arr) {
            Instant at = instant(e.path("occurred_at").asText(null));
            StringBuilder bt = new StringBuilder();
            e.path("backtrace").forEach(frame -> bt.append(bt.length() == 0 ? "" : "\n").append(frame.asText()));
            out.add(new ErrorItem(e.path("run").asInt(1), e.path("attempt").asInt(), e.path("type").asText(""),
                    e.path("code").asText(""), e.path("message").asText(""), Format.time(at), Format.iso(at),
                    e.has("retryable") ? (e.get("retryable").asBoolean() ? "yes" : "no") : "",
                    e.path("handler_code").asText(""), e.has("details") && !e.get("details").isNull()
                    ? prettyNode(e.get("details")) : "", bt.toString()));
        }
        return out;
    }

    private static Instant instant(String s) {
        try {
            return s == null ? null : Instant.parse(s);
        } catch (DateTimeException e) {
            return null;
        }
    }

    private JsonNode tree(String s) {
        try {
            return s == null ? null : json.readTree(s);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** Stored JSON, indented; the raw text if it somehow is not JSON; null when absent. */
    String pretty(String s) {
        JsonNode n = tree(s);
        return n == null ? s : prettyNode(n);
    }

    private String prettyNode(JsonNode n) {
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(n);
        } catch (JsonProcessingException e) {
            return n.toString();
        }
    }
}
