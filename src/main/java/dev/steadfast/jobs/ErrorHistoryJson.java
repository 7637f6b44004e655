package dev.steadfast.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.retry.ErrorEntry;
import dev.steadfast.http.Timestamps;
import java.util.List;

/**
 * The JSON form of error history entries (the jobs.errors column and the {@code errors} / {@code error} fields
 * on the wire): the fields of ojs-retry.md section 10.1 and ojs-errors.md section 6 ({@code attempt},
 * {@code type}, {@code code}, {@code message}, {@code occurred_at} and its alias {@code timestamp},
 * {@code details}, {@code backtrace}), plus {@code run}, {@code retryable} and {@code handler_code}.
 */
public final class ErrorHistoryJson {

    private ErrorHistoryJson() {
    }

    public static ObjectNode entry(ObjectMapper m, ErrorEntry e, Boolean retryable, String handlerCode) {
        ObjectNode n = m.createObjectNode();
        n.put("run", e.run());
        n.put("attempt", e.attempt());
        n.put("type", e.type());
        n.put("code", e.code());
        n.put("message", e.message());
        n.put("occurred_at", Timestamps.format(e.occurredAt()));
        n.put("timestamp", Timestamps.format(e.occurredAt()));
        if (retryable != null) {
            n.put("retryable", retryable);
        }
        if (handlerCode != null) {
            n.put("handler_code", handlerCode);
        }
        if (e.details() != null) {
            n.set("details", m.valueToTree(e.details()));
        }
        if (e.backtrace() != null) {
            n.set("backtrace", m.valueToTree(e.backtrace()));
        }
        return n;
    }

    public static List<String> backtrace(List<String> frames, int maxFrames, int maxChars) {
        return frames == null ? null : ErrorEntry.truncateBacktrace(frames, maxFrames, maxChars);
    }
}
