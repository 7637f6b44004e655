package dev.steadfast.console.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.console.Chrome;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Pages;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.jobs.RetryPolicies;
import io.quarkus.qute.TemplateInstance;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * {@code /admin/tools/retry}: paste a retry policy (the OJS {@code retry} object, or a job envelope holding one),
 * optionally a queue and a job type, and see the schedule of attempts the server would follow: the policy is
 * resolved by {@link RetryPolicies#resolve} (the job's policy over the configured type, queue and server
 * defaults, with the max_attempts range applied), exactly as a PUSH resolves it, and the schedule comes from the
 * domain's {@code Backoff}. Nothing is stored, so it is a GET and needs no CSRF token. A refused policy shows the
 * page again with the message (422, like the PUSH that would refuse it; 400 for text that is not JSON).
 */
@Path("/admin/tools/retry")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class RetrySimulatorPage {

    /** Longer text than any policy needs is refused before it is parsed. */
    static final int MAX_POLICY = 20_000;

    private final RetryPolicies policies;
    private final ObjectMapper json;
    private final ConsoleRequest request;

    public RetrySimulatorPage(RetryPolicies policies, ObjectMapper json, ConsoleRequest request) {
        this.policies = policies;
        this.json = json;
        this.request = request;
    }

    @GET
    public Response page(@QueryParam("policy") String policy, @QueryParam("queue") String queue,
                         @QueryParam("type") String type) {
        Chrome chrome = request.chrome("tools");
        String text = policy == null ? "" : policy;
        String q = ConsoleParams.text(queue);
        String t = ConsoleParams.text(type);
        RetrySimulation sim;
        int status = 200;
        try {
            sim = simulate(text, q, t);
        } catch (OjsException e) {
            sim = RetrySimulation.empty(text, q, t, e.getMessage());
            status = e.code().status();
        }
        return Response.status(status).entity(render(chrome, sim)).build();
    }

    /** The schedule for {@code text} (blank: the server's default policy), or an OjsException saying why not. */
    RetrySimulation simulate(String text, String queue, String type) {
        if (text.length() > MAX_POLICY) {
            throw OjsException.invalidField("policy", "The policy is longer than " + MAX_POLICY + " characters.");
        }
        if (queue != null) {
            ConsoleParams.queue(queue);
        }
        Map<String, Object> partial = text.isBlank() ? null : parse(text);
        RetryPolicy p = policies.resolve(type == null ? "" : type, queue == null ? "" : queue, partial);
        String effective;
        try {
            effective = json.writerWithDefaultPrettyPrinter().writeValueAsString(p.toWire());
        } catch (JsonProcessingException e) {
            effective = p.toWire().toString();
        }
        return RetrySimulation.of(text, queue, type, p, effective);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> parse(String text) {
        JsonNode node;
        try {
            node = json.readTree(text);
        } catch (JsonProcessingException e) {
            throw OjsException.invalidField("policy", "The policy is not valid JSON: " + e.getOriginalMessage()
                    + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ").");
        }
        if (node == null || !node.isObject()) {
            throw OjsException.invalidField("policy", "The policy must be a JSON object such as"
                    + " {\"max_attempts\": 5, \"initial_interval\": \"PT1S\"}.");
        }
        if (node.has("retry") && node.get("retry").isObject()) {
            node = node.get("retry");
        } else if (node.path("options").path("retry").isObject()) {
            node = node.get("options").get("retry");
        }
        return json.convertValue(node, Map.class);
    }

    private static TemplateInstance render(Chrome chrome, RetrySimulation sim) {
        return Pages.retrySimulator(chrome, sim);
    }
}
