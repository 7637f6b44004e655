package dev.steadfast.http;

import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.ErrorCode;
import io.restassured.response.Response;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every error's {@code docs_url} answers: the page it names is served (public, outside the catch-all 404) and has
 * an element with the id its fragment names, for every {@link ErrorCode}.
 */
@QuarkusTest
class ErrorDocsTest {

    private static final Pattern ID = Pattern.compile("\\sid=\"([^\"]+)\"");

    @Test
    void everyErrorCodesDocsUrlHasItsSection() {
        Map<String, Set<String>> pages = new java.util.HashMap<>();
        for (ErrorCode code : ErrorCode.values()) {
            String url = ErrorEnvelope.of(code, "m", Map.of(), "r").error().docsUrl();
            int hash = url.indexOf('#');
            assertTrue(hash > 0, url);
            Set<String> ids = pages.computeIfAbsent(url.substring(0, hash), ErrorDocsTest::ids);
            assertTrue(ids.contains(url.substring(hash + 1)), () -> code + ": no element with id '"
                    + url.substring(hash + 1) + "' in " + url.substring(0, hash) + " (ids: " + ids + ")");
        }
    }

    @Test
    void theDocsUrlOfARealErrorAnswers() {
        Response r = request().get("/ojs/v1/jobs/019539a4-0000-7000-8000-ffffffffffff");
        String url = path(r, "error.docs_url");
        assertEquals("/docs/errors.html#not_found", url);
        assertTrue(ids(url.substring(0, url.indexOf('#'))).contains("not_found"));
    }

    static Set<String> ids(String page) {
        Response r = request().get(page);
        assertEquals(200, r.statusCode(), () -> page + ": " + r.asString());
        assertTrue(r.contentType().startsWith("text/html"), r.contentType());
        Set<String> ids = new TreeSet<>();
        Matcher m = ID.matcher(r.asString());
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }
}
