package dev.steadfast.testsupport;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.restassured.path.json.JsonPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JsonPaths} answers what RestAssured's own paths answer, Java types included, for every shape it reads. */
class JsonPathsTest {

    private static final String DOC = """
            {"job": {"id": "j1", "state": "active", "attempt": 2, "args": [1, "two", null, {"k": true}],
                     "meta": {"dl-a": 3, "invoice.send": {"max_attempts": 5}, "empty": {}}, "none": null},
             "jobs": [{"id": "a", "errors": [{"code": "x"}]}, {"id": "b", "errors": []}, {"id": "c"}],
             "nested": [[{"id": "n1"}], [{"id": "n2"}, {"id": "n3"}]],
             "numbers": {"int": 7, "negative": -3, "long": 3000000000, "big": 123456789012345678901234567890,
                         "half": 0.5, "two": 2.0, "tiny": 1e-7, "huge": 1e300, "neg_decimal": -1.25},
             "flag": false, "text": "hello"}
            """;

    private static final List<String> PATHS = List.of("", "$", "job", "job.id", "job.state", "job.attempt",
            "job.args", "job.args[0]", "job.args[1]", "job.args[2]", "job.args[3].k", "job.args[-1]", "job.args[9]",
            "job.args.size()", "job.meta.dl-a", "job.meta.'invoice.send'.max_attempts", "job.meta.empty",
            "job.meta.empty.size()", "job.meta.size()", "job.none", "job.none.deeper", "job.missing",
            "job.missing.deeper", "missing[0]", "jobs.id", "jobs[0].errors.code", "jobs.errors", "jobs.errors.code",
            "jobs[1].errors", "jobs[2].errors", "jobs.size()", "jobs[-1].id", "nested.id", "nested[1].id",
            "numbers.int", "numbers.negative", "numbers.long", "numbers.big", "numbers.half", "numbers.two",
            "numbers.tiny", "numbers.huge", "numbers.neg_decimal", "flag", "text", "text.length()", "text.size()");

    @Test
    void everyShapeReadsAsRestAssuredReadsIt() {
        JsonPath theirs = JsonPath.from(DOC);
        for (String path : PATHS) {
            Object expected = theirs.get(path);
            Object actual = JsonPaths.read(DOC, path);
            assertEquals(expected, actual, path);
            if (expected != null) {
                assertEquals(expected.getClass(), actual.getClass(), path);
            }
        }
    }

    @Test
    void theMatcherAppliesItsMatcherAtThePath() {
        assertThat(DOC, JsonPaths.at("job.state", equalTo("active")));
        assertThat(DOC, JsonPaths.at("jobs.id", equalTo(List.of("a", "b", "c"))));
        assertThat(DOC, not(JsonPaths.at("job.state", equalTo("completed"))));
        assertThat(DOC, not(JsonPaths.at("numbers.half", equalTo(0.5d))));
    }

    @Test
    void closuresAreRefusedRatherThanMisread() {
        assertThrows(IllegalArgumentException.class, () -> JsonPaths.at("jobs.find { it.id == 'a' }", equalTo(1)));
        assertThrows(IllegalArgumentException.class, () -> JsonPaths.read(DOC, "jobs.collect { it.id }"));
        assertThrows(IllegalArgumentException.class, () -> JsonPaths.read(DOC, "job..id"));
        assertThrows(IllegalArgumentException.class, () -> JsonPaths.read(DOC, "jobs[x]"));
    }
}
