package dev.steadfast.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.response.Response;

/**
 * A logged-in console session of one of the test profile's users (admin, oper, viewer; all with the password
 * test-password), for role tests: GETs pages and POSTs forms with its own cookie and CSRF token, redirects not
 * followed.
 */
public record ConsoleUser(String name, String session, String csrf) {

    /** Logs {@code name} in. */
    public static ConsoleUser login(String name) {
        Response form = Console.anonymous().get("/admin/login");
        assertEquals(200, form.statusCode(), form::asString);
        Response in = Console.postWith(Console.anonymous().cookie(Console.SESSION, form.getCookie(Console.SESSION)),
                Console.token(form.asString()), "/admin/login", "username", name, "password", Console.PASSWORD,
                "next", "/admin");
        assertEquals(303, in.statusCode(), in::asString);
        String session = in.getCookie(Console.SESSION);
        String csrf = Console.token(Console.anonymous().cookie(Console.SESSION, session).get("/admin/workers").asString());
        return new ConsoleUser(name, session, csrf);
    }

    public Response get(String path) {
        return Console.anonymous().cookie(Console.SESSION, session).get(path);
    }

    /** POSTs a form (alternating names and values) with this session's CSRF token. */
    public Response post(String path, String... namesAndValues) {
        return Console.postWith(Console.anonymous().cookie(Console.SESSION, session), csrf, path, namesAndValues);
    }
}
