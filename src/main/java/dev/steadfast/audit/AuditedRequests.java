package dev.steadfast.audit;

import dev.steadfast.http.ApiAccess;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which requests the audit log records and how it names them (pure: method, path and names in, answers out).
 *
 * <ul>
 *   <li>the console: every POST under /admin except the login and the logout (every console form is a change);</li>
 *   <li>the API: every change only the {@code admin} role may make ({@link ApiAccess#allowed}: everything under
 *       /ojs/v1/admin, queue pause and resume, the dead-letter actions, cron and schema changes), plus the OJS
 *       CANCEL of a job or a workflow, which a producer may also send;</li>
 *   <li>never a GET, HEAD or OPTIONS, nor a console form's first POST answered with its confirmation page
 *       ({@link #recorded}).</li>
 * </ul>
 *
 * An action is named {@code <area>.<verb>}: the area is the first fixed segment of the route after
 * {@code /ojs/v1/admin/}, {@code /ojs/v1/} or {@code /admin/} ({@code jobs}, {@code dead-letter}, {@code queues},
 * {@code errors}...), the verb the form's {@code op} field when it has one, else the route's {@code {action}}
 * parameter, else the resource method's name in kebab case ({@code bulk-retry}, {@code pause}).
 */
public final class AuditedRequests {

    private static final Pattern CANCEL = Pattern.compile("^/ojs/v1/(jobs|workflows)/[^/]+$");
    private static final Set<String> UNRECORDED_CONSOLE_POSTS = Set.of("/admin/login", "/admin/logout");

    private AuditedRequests() {
    }

    /** Whether {@code method path} is a change the audit log records. */
    public static boolean audited(String method, String path) {
        String m = method.toUpperCase(Locale.ROOT);
        if (m.equals("GET") || m.equals("HEAD") || m.equals("OPTIONS") || path == null) {
            return false;
        }
        if (path.equals("/admin") || path.startsWith("/admin/")) {
            return !UNRECORDED_CONSOLE_POSTS.contains(path);
        }
        if (!path.startsWith("/ojs/")) {
            return false;
        }
        return ApiAccess.allowed(m, path).equals(Set.of(ApiAccess.Role.ADMIN))
                || m.equals("DELETE") && CANCEL.matcher(path).matches();
    }

    /**
     * Whether a request {@link #audited} is recorded once answered with {@code status}: not a 401 (no known actor),
     * and not a console form answered 200 (its confirmation page: the change happens only on the confirmed POST,
     * which answers with a redirect).
     */
    public static boolean recorded(String path, int status) {
        return status != 401 && !(via(path).equals("console") && status == 200);
    }

    /** {@code console} for a console path, else {@code api}. */
    public static String via(String path) {
        return path != null && (path.equals("/admin") || path.startsWith("/admin/")) ? "console" : "api";
    }

    /** The action's name, from the route template, the resource method and the optional verb fields. */
    public static String action(String template, String javaMethod, String op, String actionParam) {
        String verb = present(op) ? op : present(actionParam) ? actionParam : kebab(javaMethod);
        String area = area(template);
        return area.isEmpty() || area.equals(verb) ? verb : area + "." + verb;
    }

    /** The first fixed segment of the route after its prefix: {@code /ojs/v1/admin/jobs/{id}} is {@code jobs}. */
    static String area(String template) {
        String t = template == null ? "" : template.replaceAll("/+", "/");
        for (String prefix : new String[] {"/ojs/v1/admin/", "/ojs/v1/", "/ojs/", "/admin/"}) {
            if (t.startsWith(prefix)) {
                t = t.substring(prefix.length());
                break;
            }
        }
        for (String seg : t.split("/")) {
            if (!seg.isEmpty() && !seg.startsWith("{")) {
                return seg;
            }
        }
        return "";
    }

    /** How a request ended, from its status: ok, refused (401, 403), rejected (other 4xx) or failed (5xx). */
    public static String outcome(int status) {
        if (status < 400) {
            return "ok";
        }
        if (status == 401 || status == 403) {
            return "refused";
        }
        return status < 500 ? "rejected" : "failed";
    }

    static String kebab(String camel) {
        if (camel == null || camel.isEmpty()) {
            return "change";
        }
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static boolean present(String s) {
        return s != null && !s.isBlank();
    }
}
