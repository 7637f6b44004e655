package dev.steadfast.console;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The one-time message an action leaves for the page it redirects to ("Re-enqueued 42 jobs"): a short-lived
 * cookie, read and cleared by the next page (POST, redirect, GET). It is only ever shown as escaped text.
 */
public final class Flash {

    static final String COOKIE = "steadfast_flash";

    private Flash() {
    }

    /** A 303 to {@code location} carrying {@code message} for the next page. */
    public static Response redirect(String location, String message) {
        String value = URLEncoder.encode(message, StandardCharsets.UTF_8);
        return Response.seeOther(URI.create(location))
                .header(HttpHeaders.SET_COOKIE, ConsoleFilters.cookie(COOKIE, value, 60, false)).build();
    }

    static String read(String cookieValue) {
        if (cookieValue == null || cookieValue.isEmpty()) {
            return null;
        }
        try {
            String s = URLDecoder.decode(cookieValue, StandardCharsets.UTF_8);
            return s.length() > 500 ? s.substring(0, 500) : s;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
