package dev.steadfast.console;

import java.util.List;

/**
 * A confirmation step before a destructive action: what will happen (with the count, for bulk actions), and a
 * form that repeats the request's fields plus {@code confirm=yes}. Without that field no action runs.
 */
public record ConfirmView(String title, String message, String action, List<Hidden> fields, String button,
                          boolean danger, String cancelHref) {

    /** A field carried through to the confirmed request. */
    public record Hidden(String name, String value) {
    }
}
