package dev.steadfast.console.auth;

import java.util.Locale;
import java.util.Set;

/**
 * Which console role a request needs (pure: method, path and the form's {@code op} in, a role out):
 *
 * <ul>
 *   <li>{@code readonly}: every page (GET, HEAD), and the login and logout forms;</li>
 *   <li>{@code admin}: what cannot be undone or changes settings: any action whose last path segment or
 *       {@code op} field is a delete ({@code delete}, {@code delete-selected}, {@code delete-matching}), or whose
 *       last path segment is {@code limits}, {@code settings}, {@code config}, {@code rate-limit} or
 *       {@code reset};</li>
 *   <li>{@code operator}: every other POST (retry, cancel, discard, pause, resume, run now...).</li>
 * </ul>
 *
 * A new console action is covered without being listed: it needs {@code operator}, or {@code admin} when its name
 * says delete or settings. ConsoleFilters enforces the rule on every request before any page resource runs.
 */
public final class ConsoleAccess {

    static final Set<String> OPEN_POSTS = Set.of("/admin/login", "/admin/logout");
    static final Set<String> ADMIN_SEGMENTS = Set.of("delete", "limits", "settings", "config", "rate-limit", "reset");

    private ConsoleAccess() {
    }

    /** The least role that may send {@code method path} with the form field {@code op} (null when absent). */
    public static ConsoleRole required(String method, String path, String op) {
        String m = method.toUpperCase(Locale.ROOT);
        if (m.equals("GET") || m.equals("HEAD") || m.equals("OPTIONS") || OPEN_POSTS.contains(path)) {
            return ConsoleRole.READONLY;
        }
        String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        String last = p.substring(p.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        String verb = op == null ? "" : op.trim().toLowerCase(Locale.ROOT);
        if (ADMIN_SEGMENTS.contains(last) || verb.equals("delete") || verb.startsWith("delete-")) {
            return ConsoleRole.ADMIN;
        }
        return ConsoleRole.OPERATOR;
    }

    /** Whether {@code role} (null: nobody logged in) may send the request. */
    public static boolean allows(ConsoleRole role, String method, String path, String op) {
        return role != null && role.includes(required(method, path, op));
    }
}
