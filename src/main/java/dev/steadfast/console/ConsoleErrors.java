package dev.steadfast.console;

import dev.steadfast.http.ConsoleErrorPage;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.core.Response;

/**
 * The console's error page: any failure under /admin (a bad parameter, an unknown job, a refused transition, an
 * unexpected error) is answered as HTML with its status and a message, never with the OJS JSON envelope and never
 * with a stack trace. {@link dev.steadfast.http.ErrorMapper} and the catch-all 404 route hand console paths here
 * through {@link ConsoleErrorPage}.
 */
@ApplicationScoped
class ConsoleErrors implements ConsoleErrorPage {

    private final Instance<ConsoleRequest> request;

    public ConsoleErrors(Instance<ConsoleRequest> request) {
        this.request = request;
    }

    @Override
    public Response response(int status, String message) {
        return Response.status(status).type(HTML).entity(html(status, message)).build();
    }

    @Override
    public String html(int status, String message) {
        Chrome chrome;
        try {
            chrome = request.get().chrome("");
        } catch (RuntimeException e) {
            chrome = new Chrome("", null, "", null);
        }
        return Pages.error(chrome, status, title(status), message).render();
    }

    static String title(int status) {
        return switch (status) {
            case 400 -> "Bad request";
            case 401 -> "Login required";
            case 403 -> "Forbidden";
            case 404 -> "Not found";
            case 405 -> "Method not allowed";
            case 409 -> "Conflict";
            case 413 -> "Request too large";
            case 422 -> "Not acceptable";
            case 503 -> "Database unavailable";
            default -> status >= 500 ? "Server error" : "Request refused";
        };
    }
}
