package dev.steadfast.workflows;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.PrintableText;
import dev.steadfast.domain.workflow.WorkflowState;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.model.WorkflowFilter;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Locale;

/**
 * The workflows listing's filters as query parameters ({@code GET /ojs/v1/workflows} and the console's
 * {@code /admin/workflows} take the same): {@code state}, {@code type} (chain, group, batch), {@code name} (a
 * case-insensitive substring), {@code created_after} (inclusive) and {@code created_before} (exclusive), RFC 3339,
 * and {@code nested} (true: workflows nested in others too). A bad value is a 400 invalid_request naming the
 * parameter, what was expected and what was received.
 */
public final class WorkflowListQuery {

    /** The longest name filter: a workflow's name has at most 255 characters. */
    static final int MAX_NAME = 255;

    private WorkflowListQuery() {
    }

    public static WorkflowFilter parse(String state, String type, String name, String createdAfter,
                                       String createdBefore, String nested) {
        return parse(state, type, name, timestamp("created_after", createdAfter),
                timestamp("created_before", createdBefore), nested);
    }

    /** The same with the created range already read (the console's date inputs). */
    public static WorkflowFilter parse(String state, String type, String name, Instant after, Instant before,
                                       String nested) {
        if (after != null && before != null && !after.isBefore(before)) {
            throw OjsException.invalidField("created_before", "'created_before' must be later than 'created_after'.",
                    "a time after " + after, before.toString());
        }
        return new WorkflowFilter(state(state), type(type), name(name), after, before, bool("nested", nested));
    }

    private static String text(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    static WorkflowState state(String s) {
        String v = text(s);
        return v == null ? null : WorkflowState.fromWire(v).orElseThrow(() -> OjsException.invalidField("state",
                "'state' must be one of " + names(WorkflowState.values()) + ".", names(WorkflowState.values()), v));
    }

    static WorkflowType type(String s) {
        String v = text(s);
        return v == null ? null : WorkflowType.fromWire(v).orElseThrow(() -> OjsException.invalidField("type",
                "'type' must be one of " + names(WorkflowType.values()) + ".", names(WorkflowType.values()), v));
    }

    static String name(String s) {
        String v = text(s);
        return v == null ? null : PrintableText.check("name", v, MAX_NAME);
    }

    static Instant timestamp(String field, String s) {
        String v = text(s);
        if (v == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeException e) {
            throw OjsException.invalidField(field, "'" + field + "' must be an RFC 3339 timestamp such as"
                    + " 2026-11-26T08:00:00Z.", "RFC 3339 timestamp", v);
        }
    }

    static boolean bool(String field, String s) {
        String v = text(s);
        if (v == null || v.equals("false")) {
            return false;
        }
        if (v.equals("true")) {
            return true;
        }
        throw OjsException.invalidField(field, "'" + field + "' must be true or false.", "true or false", v);
    }

    private static String names(Enum<?>[] values) {
        return String.join(", ", Arrays.stream(values).map(e -> e.name().toLowerCase(Locale.ROOT)).toList());
    }
}
