package dev.steadfast.testsupport;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A browser-less console user for HTML tests: logs in once (admin / test-password, the test profile's user),
 * then GETs pages and POSTs forms with its session cookie and CSRF token, without following redirects, so
 * tests see each 303 and its flash cookie themselves.
 */
public final class Console {

    public static final String USER = "admin";
    public static final String PASSWORD = "test-password";
    public static final String SESSION = "steadfast_session";
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private static String session;
    private static String csrf;

    private Console() {
    }

    /** A request without any cookie: an anonymous visitor (with Api.config()). */
    public static RequestSpecification anonymous() {
        return given().config(Api.config()).redirects().follow(false);
    }

    /** A request carrying the logged-in session cookie. */
    public static RequestSpecification request() {
        login();
        return anonymous().cookie(SESSION, session);
    }

    public static Response get(String path) {
        return request().get(path);
    }

    /** POSTs a form (alternating names and values; a name may repeat) with the session's CSRF token. */
    public static Response post(String path, String... namesAndValues) {
        login();
        return postWith(request(), csrf, path, namesAndValues);
    }

    /** POSTs a form with the given session cookie and token (either may be null). */
    public static Response postWith(RequestSpecification r, String token, String path, String... namesAndValues) {
        r.contentType("application/x-www-form-urlencoded; charset=UTF-8");
        Map<String, List<String>> form = new LinkedHashMap<>();
        if (token != null) {
            form.put("_csrf", new ArrayList<>(List.of(token)));
        }
        for (int i = 0; i < namesAndValues.length; i += 2) {
            form.computeIfAbsent(namesAndValues[i], k -> new ArrayList<>()).add(namesAndValues[i + 1]);
        }
        form.forEach((k, v) -> r.formParam(k, v.toArray()));
        return r.post(path);
    }

    /** Logs in once per test run (the test profile's session secret is fixed, so the cookie stays valid). */
    public static synchronized void login() {
        if (session != null) {
            return;
        }
        Response form = anonymous().get("/admin/login");
        assertEquals(200, form.statusCode(), form::asString);
        Response in = postWith(anonymous().cookie(SESSION, form.getCookie(SESSION)), token(form.asString()),
                "/admin/login", "username", USER, "password", PASSWORD, "next", "/admin");
        assertEquals(303, in.statusCode(), in::asString);
        session = in.getCookie(SESSION);
        csrf = token(anonymous().cookie(SESSION, session).get("/admin/workers").asString());
    }

    public static String csrf() {
        login();
        return csrf;
    }

    public static String session() {
        login();
        return session;
    }

    /** The CSRF token in a page's forms. */
    public static String token(String html) {
        Matcher m = CSRF.matcher(html);
        if (!m.find()) {
            throw new AssertionError("no _csrf field in: " + html);
        }
        return m.group(1);
    }

    /** The flash message a redirect carries, decoded. */
    public static String flash(Response r) {
        String v = r.getCookie("steadfast_flash");
        return v == null ? null : URLDecoder.decode(v, StandardCharsets.UTF_8);
    }
}
