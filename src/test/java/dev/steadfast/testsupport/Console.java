package dev.steadfast.testsupport;

import static io.restassured.RestAssured.given;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A browser-less console user for HTML tests: GETs pages and POSTs forms without following redirects, so tests
 * see the 303 and its flash cookie themselves.
 */
public final class Console {

    private Console() {
    }

    public static RequestSpecification request() {
        return given().redirects().follow(false);
    }

    public static Response get(String path) {
        return request().get(path);
    }

    /** POSTs a form built from alternating names and values (a name may repeat). */
    public static Response post(String path, String... namesAndValues) {
        RequestSpecification r = request().contentType("application/x-www-form-urlencoded");
        Map<String, java.util.List<String>> form = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            form.computeIfAbsent(namesAndValues[i], k -> new java.util.ArrayList<>()).add(namesAndValues[i + 1]);
        }
        form.forEach((k, v) -> r.formParam(k, v.toArray()));
        return r.post(path);
    }

    /** The flash message a redirect carries, decoded. */
    public static String flash(Response r) {
        String v = r.getCookie("steadfast_flash");
        return v == null ? null : java.net.URLDecoder.decode(v, java.nio.charset.StandardCharsets.UTF_8);
    }
}
