package dev.steadfast.testsupport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ResponseBodyExtractionOptions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.hamcrest.Description;
import org.hamcrest.Matcher;
import org.hamcrest.TypeSafeMatcher;

/**
 * RestAssured's JSON paths ({@code "job.state"}, {@code "jobs.id"}, {@code "items[1].error.code"},
 * {@code "jobs.size()"}) read with Jackson: the same answers, Java types included, without the Groovy script
 * RestAssured compiles for every path it evaluates. Those scripts were the largest part of the test suite's CPU
 * (docs/internals/testing.md, "Keeping the suite fast"), so the tests write {@code body(at("job.state", is("active")))}
 * for {@code body("job.state", is("active"))} and {@code path(r, "job.id")} for {@code r.path("job.id")}.
 *
 * <p>The paths read here are the plain ones: names (hyphens allowed, {@code 'quoted.names'} too) separated by dots,
 * list indexes ({@code [0]}, {@code [-1]}) and a final {@code size()} or {@code length()}. A name applied to a list
 * collects it from every element, as in GPath; a step from nothing answers nothing. Numbers come back as
 * RestAssured's do: Integer, Long or BigInteger for whole numbers, Float (Double above Float's range) for the rest.
 * Anything else (a closure such as {@code find { ... }}) is refused with an exception: write it with RestAssured.
 *
 * <p>With {@code -Dsteadfast.test.json-paths=check} every path is also evaluated by RestAssured and a difference
 * fails the test: run the suite so once after changing this class.
 */
public final class JsonPaths {

    private static final ObjectMapper JSON =
            new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final boolean CHECK = "check".equals(System.getProperty("steadfast.test.json-paths"));
    private static final BigDecimal FLOAT_MAX = BigDecimal.valueOf(Float.MAX_VALUE);

    private JsonPaths() {
    }

    /** The value at {@code path} in the JSON body of a response (or of its extraction), as RestAssured's path. */
    @SuppressWarnings("unchecked")
    public static <T> T path(ResponseBodyExtractionOptions response, String path) {
        return (T) read(response.asString(), path);
    }

    /** A matcher of a response body (RestAssured's {@code body(Matcher)}) that applies {@code matcher} at {@code path}. */
    public static Matcher<String> at(String path, Matcher<?> matcher) {
        Steps.parse(path);
        return new TypeSafeMatcher<>() {
            @Override
            protected boolean matchesSafely(String body) {
                return matcher.matches(read(body, path));
            }

            @Override
            public void describeTo(Description description) {
                description.appendText("JSON path ").appendText(path).appendText(" ").appendDescriptionOf(matcher);
            }

            @Override
            protected void describeMismatchSafely(String body, Description mismatch) {
                mismatch.appendText("JSON path ").appendText(path).appendText(" ");
                matcher.describeMismatch(read(body, path), mismatch);
            }
        };
    }

    /** The value at {@code path} in the JSON document {@code json}. */
    public static Object read(String json, String path) {
        List<Step> steps = Steps.parse(path);
        Object value;
        try {
            value = javaValue(JSON.readTree(json));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + json, e);
        }
        for (Step step : steps) {
            if (value == null) {
                break; // a step from nothing answers nothing, as in RestAssured
            }
            value = step.apply(value);
        }
        if (CHECK) {
            Object theirs = JsonPath.from(json).get(path);
            if (!Objects.equals(value, theirs)) {
                throw new AssertionError("JSON path " + path + " read " + describe(value) + ", RestAssured reads "
                        + describe(theirs) + " in " + json);
            }
        }
        return value;
    }

    private static String describe(Object value) {
        return value == null ? "null" : value + " (" + value.getClass().getSimpleName() + ")";
    }

    private static Object javaValue(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                map.put(field.getKey(), javaValue(field.getValue()));
            }
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            node.forEach(element -> list.add(javaValue(element)));
            return list;
        }
        if (node.isIntegralNumber()) {
            if (node.canConvertToInt()) {
                return node.intValue();
            }
            if (node.canConvertToLong()) {
                return node.longValue();
            }
            return node.bigIntegerValue();
        }
        if (node.isNumber()) {
            BigDecimal decimal = node.decimalValue();
            if (decimal.compareTo(FLOAT_MAX) > 0) {
                return decimal.doubleValue();
            }
            return decimal.floatValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        return node.asText();
    }

    /** One step of a path: a name, an index or a final size; never applied to null ({@link #read} stops there). */
    private interface Step {
        Object apply(Object value);
    }

    private record Name(String name) implements Step {
        @Override
        public Object apply(Object value) {
            if (value instanceof Map<?, ?> map) {
                return map.get(name);
            }
            if (value instanceof List<?> list) {
                List<Object> collected = new ArrayList<>(list.size());
                for (Object element : list) {
                    if (element != null) {
                        collected.add(apply(element));
                    }
                }
                return collected;
            }
            throw new IllegalArgumentException("no property " + name + " on " + value);
        }
    }

    private record Index(int index) implements Step {
        @Override
        public Object apply(Object value) {
            if (value instanceof List<?> list) {
                int at = index < 0 ? list.size() + index : index;
                return at >= 0 && at < list.size() ? list.get(at) : null;
            }
            throw new IllegalArgumentException("no index " + index + " on " + value);
        }
    }

    private record Size(String method) implements Step {
        @Override
        public Object apply(Object value) {
            if (value instanceof List<?> list && method.equals("size()")) {
                return list.size();
            }
            if (value instanceof Map<?, ?> map && method.equals("size()")) {
                return map.size();
            }
            if (value instanceof String text) {
                return text.length();
            }
            throw new IllegalArgumentException("no " + method + " on " + value);
        }
    }

    private static final class Steps {
        private Steps() {
        }

        static List<Step> parse(String path) {
            List<Step> steps = new ArrayList<>();
            if (path.equals("$")) {
                return steps;
            }
            int i = 0;
            int n = path.length();
            boolean expectName = !path.startsWith("[");
            while (i < n) {
                char c = path.charAt(i);
                if (c == '[') {
                    int close = path.indexOf(']', i);
                    if (close < 0) {
                        throw unsupported(path);
                    }
                    try {
                        steps.add(new Index(Integer.parseInt(path.substring(i + 1, close))));
                    } catch (NumberFormatException e) {
                        throw unsupported(path);
                    }
                    i = close + 1;
                    expectName = false;
                } else if (c == '.' && !expectName) {
                    i++;
                    expectName = true;
                } else if (expectName && c == '\'') {
                    int close = path.indexOf('\'', i + 1);
                    if (close < 0) {
                        throw unsupported(path);
                    }
                    steps.add(new Name(path.substring(i + 1, close)));
                    i = close + 1;
                    expectName = false;
                } else if (expectName && isNameChar(c)) {
                    int end = i;
                    while (end < n && isNameChar(path.charAt(end))) {
                        end++;
                    }
                    String name = path.substring(i, end);
                    if (end + 2 == n && path.startsWith("()", end)
                            && (name.equals("size") || name.equals("length"))) {
                        steps.add(new Size(name + "()"));
                        end += 2;
                    } else {
                        steps.add(new Name(name));
                    }
                    i = end;
                    expectName = false;
                } else {
                    throw unsupported(path);
                }
            }
            if (expectName && !path.isEmpty()) {
                throw unsupported(path);
            }
            return steps;
        }

        private static boolean isNameChar(char c) {
            return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '$';
        }

        private static IllegalArgumentException unsupported(String path) {
            return new IllegalArgumentException("JsonPaths reads plain paths (names, [n], size()); write \"" + path
                    + "\" with RestAssured");
        }
    }
}
