package dev.steadfast.console.jobs;

import java.util.List;

/**
 * The job page: the envelope, args/meta/result pretty-printed, a timeline, the full error history (every run),
 * the effective retry policy with its delay schedule, the progress its worker reported in the current attempt,
 * and which actions the job's state allows.
 */
public record JobDetailView(String id, String type, String queue, String state, boolean deadLetter,
                            List<Field> envelope, String args, String meta, String result, String extensions,
                            List<Moment> timeline, List<ErrorItem> errors, String nextRetry, RetryPreview retry,
                            Actions actions, String listHref, ProgressLine progress) {

    /** A labelled value of the envelope. */
    public record Field(String label, String value) {
    }

    /** A point on the timeline; {@code tone} is "", "ok", "warn" or "bad"; {@code future} for what is still due. */
    public record Moment(String at, String iso, String label, String detail, String tone, boolean future) {
    }

    /** One entry of the error history. */
    public record ErrorItem(int run, int attempt, String type, String code, String message, String at, String iso,
                            String retryable, String handlerCode, String details, String backtrace) {
    }

    /** The effective retry policy and the delay before each retry. */
    public record RetryPreview(String policy, String summary, List<Step> steps, boolean truncated) {
    }

    /** The delay before {@code attempt}: the computed delay and, with jitter, the range it falls in. */
    public record Step(int attempt, String delay, String range) {
    }

    /**
     * The progress shown for the current attempt (ojs-progress.md): {@code value} "0".."1" for the bar and
     * {@code percent} its label, both empty when only data was reported; {@code reported} false (and every other
     * field empty) for an active job that has not reported anything in this attempt.
     */
    public record ProgressLine(boolean reported, String value, String percent, String message, String data,
                               String checkpoint, String at, String iso, String attempt) {
    }

    /** The actions the job's state allows, and how the retry button describes itself. */
    public record Actions(boolean retry, String retryLabel, String retryExplain, boolean cancel, boolean delete) {
    }
}
