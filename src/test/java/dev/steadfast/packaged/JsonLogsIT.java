package dev.steadfast.packaged;

import static dev.steadfast.testsupport.Api.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The packaged application in the prod profile writes its log as JSON lines (docs/operations/telemetry.md), not the plain
 * text of dev and test. The launched process's output is target/quarkus.log.
 */
@QuarkusIntegrationTest
@TestProfile(PackagedApp.class)
class JsonLogsIT {

    private static final Pattern PLAIN = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (INFO|WARN|ERROR|DEBUG) ");

    @Test
    void everyLogLineIsAJsonObject() throws Exception {
        request().get("/ojs/v1/health").then().statusCode(200);
        Path log = Path.of("target/quarkus.log");
        assertTrue(Files.exists(log), "no " + log);
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            assertTrue(!PLAIN.matcher(line).find(), "a plain-text log line in production: " + line);
            if (line.startsWith("{")) {
                lines.add(json.readTree(line));
            }
        }
        assertTrue(!lines.isEmpty(), "no JSON log line in " + log);
        for (JsonNode l : lines) {
            assertTrue(l.hasNonNull("timestamp") && l.hasNonNull("level") && l.has("message"), l.toString());
        }
        assertEquals(1, lines.stream().filter(l -> l.path("message").asText().contains("started in")).count(),
                "the start-up line, as JSON");
    }
}
