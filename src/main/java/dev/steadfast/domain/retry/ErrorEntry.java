package dev.steadfast.domain.retry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of a job's error history (OJS retry spec section 10.1; RET-14).
 *
 * <p>{@code run} starts at 1 and is bumped each time an operator re-enqueues a dead-lettered job,
 * so the attempts of earlier runs stay readable next to the new ones; {@code attempt} is the
 * 1-based attempt within its run. {@code code} is the handler response code as sent (may be null),
 * {@code details} and {@code backtrace} are optional (null when absent). {@code occurredAt} is
 * serialised as the spec's {@code timestamp}.
 *
 * <p>Guarantees: immutable — {@code details} and {@code backtrace} are unmodifiable shallow copies
 * (details may hold JSON nulls). The record does not truncate a backtrace itself, because a stored
 * and already truncated one must read back unchanged; callers apply {@link #truncateBacktrace} to
 * worker input. Limits: {@value #MAX_BACKTRACE_FRAMES} frames and {@value #MAX_BACKTRACE_CHARS}
 * characters by default.
 */
public record ErrorEntry(int run, int attempt, String type, String code, String message, Instant occurredAt,
        Map<String, Object> details, List<String> backtrace) {

    /** Default frame limit for {@link #truncateBacktrace}. */
    public static final int MAX_BACKTRACE_FRAMES = 50;
    /** Default limit on the summed length of kept frames for {@link #truncateBacktrace}. */
    public static final int MAX_BACKTRACE_CHARS = 10_000;

    public ErrorEntry {
        if (run < 1 || attempt < 1) {
            throw new IllegalArgumentException("run and attempt are 1-based, got run " + run + ", attempt " + attempt);
        }
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(occurredAt, "occurredAt");
        details = details == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(details));
        backtrace = backtrace == null ? null : Collections.unmodifiableList(new ArrayList<>(backtrace));
    }

    /**
     * Keeps the leading frames of {@code frames} while both at most {@code maxFrames} frames and at
     * most {@code maxChars} characters (summed frame lengths) are kept; a frame is never split. If
     * anything was dropped, one marker frame such as {@code "... 37 more frames truncated"} is
     * appended, so the result has at most {@code maxFrames + 1} entries. Null frames become
     * {@code ""}. Returns null for null input and an unmodifiable list otherwise.
     */
    public static List<String> truncateBacktrace(List<String> frames, int maxFrames, int maxChars) {
        if (maxFrames < 0 || maxChars < 0) {
            throw new IllegalArgumentException("limits must be >= 0, got " + maxFrames + " frames, " + maxChars + " chars");
        }
        if (frames == null) {
            return null;
        }
        List<String> kept = new ArrayList<>();
        long chars = 0;
        for (String frame : frames) {
            String f = frame == null ? "" : frame;
            if (kept.size() == maxFrames || chars + f.length() > maxChars) {
                break;
            }
            kept.add(f);
            chars += f.length();
        }
        int dropped = frames.size() - kept.size();
        if (dropped > 0) {
            kept.add("... " + dropped + (dropped == 1 ? " more frame truncated" : " more frames truncated"));
        }
        return Collections.unmodifiableList(kept);
    }

    /** {@link #truncateBacktrace(List, int, int)} with the default limits. */
    public static List<String> truncateBacktrace(List<String> frames) {
        return truncateBacktrace(frames, MAX_BACKTRACE_FRAMES, MAX_BACKTRACE_CHARS);
    }
}
