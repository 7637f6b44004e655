package dev.steadfast.http;

import jakarta.ws.rs.core.Response;

/**
 * How a failure under /admin is answered: the console's HTML error page, never the OJS JSON envelope. The
 * console provides it; the error mapper and the request-line checks hand every console path to it.
 */
public interface ConsoleErrorPage {

    String HTML = "text/html;charset=UTF-8";

    static boolean isConsole(String path) {
        return path != null && (path.equals("/admin") || path.startsWith("/admin/"));
    }

    /** The page as a response with {@code status}. */
    Response response(int status, String message);

    /** The page as text; usable outside a REST request (the catch-all route), where there is no session. */
    String html(int status, String message);
}
