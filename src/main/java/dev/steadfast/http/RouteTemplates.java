package dev.steadfast.http;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The route template a request path was meant for ({@code /ojs/v1/jobs/{id}/activate} for
 * {@code /ojs/v1/jobs/0199.../activate}), from the JAX-RS {@code @Path} templates of the resources (pure: the
 * templates are given). Logs name the template, not the raw path, so a line neither repeats ids nor echoes
 * whatever a client put in its URL. A literal segment beats a parameter ({@code /ojs/v1/jobs/batch} over
 * {@code /ojs/v1/jobs/{id}}); a path no template matches is {@value #NONE}.
 */
final class RouteTemplates {

    static final String NONE = "(no route)";

    private final List<String[]> templates = new ArrayList<>();

    RouteTemplates(Collection<String> templates) {
        Set<String> unique = new LinkedHashSet<>();
        for (String t : templates) {
            unique.add(normalize(t));
        }
        for (String t : unique) {
            this.templates.add(segments(t));
        }
    }

    /** The template of {@code path} (a normalized path without query), or {@value #NONE}. */
    String of(String path) {
        String[] p = segments(path == null ? "" : path);
        String[] best = null;
        for (String[] t : templates) {
            if (matches(t, p) && (best == null || moreLiteral(t, best))) {
                best = t;
            }
        }
        return best == null ? NONE : "/" + String.join("/", best);
    }

    /** Every template {@code path} matches, literal or not, as {@link #normalize} writes them. */
    List<String> allOf(String path) {
        String[] p = segments(path == null ? "" : path);
        List<String> out = new ArrayList<>();
        for (String[] t : templates) {
            if (matches(t, p)) {
                out.add("/" + String.join("/", t));
            }
        }
        return out;
    }

    private static boolean matches(String[] t, String[] p) {
        if (t.length != p.length) {
            return false;
        }
        for (int i = 0; i < t.length; i++) {
            if (!param(t[i]) && !t[i].equals(p[i]) || param(t[i]) && p[i].isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code a} has a literal where {@code b} first has a parameter. */
    private static boolean moreLiteral(String[] a, String[] b) {
        for (int i = 0; i < a.length; i++) {
            if (param(a[i]) != param(b[i])) {
                return !param(a[i]);
            }
        }
        return false;
    }

    private static boolean param(String segment) {
        return segment.startsWith("{") && segment.endsWith("}");
    }

    /** One slash between segments, none at the end, a parameter's regular expression dropped ({id: .+} is {id}). */
    static String normalize(String template) {
        List<String> out = new ArrayList<>();
        for (String s : segments(template)) {
            if (param(s) && s.contains(":")) {
                s = "{" + s.substring(1, s.indexOf(':')).trim() + "}";
            }
            out.add(s);
        }
        return "/" + String.join("/", out);
    }

    /** The non-empty segments; a slash inside a parameter's braces ({id: [^/]+}) does not split. */
    private static String[] segments(String path) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            depth += c == '{' ? 1 : c == '}' && depth > 0 ? -1 : 0;
            if (c == '/' && depth == 0) {
                if (!cur.isEmpty()) {
                    out.add(cur.toString());
                }
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        if (!cur.isEmpty()) {
            out.add(cur.toString());
        }
        return out.toArray(String[]::new);
    }
}
