package dev.steadfast.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.StepGraph.Node;
import dev.steadfast.domain.workflow.StepGraph.Shape;
import dev.steadfast.domain.workflow.StepGraph;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.http.Body;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A workflow in the HTTP binding's shape (ojs-http-binding.md 14.1): no {@code type}, {@code steps} each with an
 * {@code id} and {@code depends_on}, as the official Java SDK sends chains, groups and batches. The dependencies
 * are read as one of the three primitives by {@link StepGraph} (a path is a chain, no dependencies a group,
 * {@code on_complete}/{@code on_success}/{@code on_failure} steps waiting for every other step a batch); a
 * malformed graph is {@code 400 invalid_request}, a well-formed graph that is none of them {@code 422 unsupported},
 * both naming the step. Each step is then a job as PUSH takes it, without {@code id} (the step id, kept as the
 * member's key) and {@code depends_on}.
 */
final class BindingWorkflow {

    private BindingWorkflow() {
    }

    /** Whether the body is in the binding's shape rather than {@code type} + steps/jobs. */
    static boolean applies(Body b) {
        return !b.has("type") && b.raw("steps") != null && b.raw("steps").isArray();
    }

    /**
     * The primitive read from the steps: its type, the step bodies in execution order (without {@code id} and
     * {@code depends_on}), a batch's callback bodies and the step ids in the same order as the steps.
     */
    record Parsed(WorkflowType type, List<Body> steps, Map<MemberRole, Body> callbacks, List<String> keys) {
    }

    static Parsed read(Body b) {
        JsonNode items = b.array("steps", true);
        List<Node> nodes = new ArrayList<>(items.size());
        List<Body> bodies = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Body e = Body.element(null, items.get(i), "steps[" + i + "]");
            String id = e.string("id", true);
            if (id.isEmpty() || id.length() > 255) {
                throw OjsException.invalidField(e.field("id"), "'" + e.field("id")
                        + "' must be 1 to 255 characters: the step's id, which depends_on refers to.");
            }
            List<String> deps = e.has("depends_on") ? e.strings("depends_on", true) : List.of();
            nodes.add(new Node(id, deps));
            ObjectNode plain = e.node().deepCopy();
            plain.remove("id");
            plain.remove("depends_on");
            bodies.add(e.with(plain));
        }
        StepGraph.Result r = StepGraph.read(nodes);
        if (r.refusal() != null) {
            StepGraph.Refusal no = r.refusal();
            String path = no.index() < 0 ? "steps" : "steps[" + no.index() + "]";
            String message = "Workflow validation failed: " + path + " (" + (no.index() < 0 ? "" : "'"
                    + nodes.get(no.index()).id() + "': ") + no.reason() + ").";
            if (no.malformed()) {
                throw OjsException.invalidField(path, message);
            }
            throw new OjsException(ErrorCode.UNSUPPORTED, message + " Steps with depends_on are read as a chain (one"
                    + " path), a group (no dependencies) or a batch (on_complete / on_success / on_failure waiting"
                    + " for every job); other graphs are not supported.", Map.of("path", path));
        }
        Shape shape = r.shape();
        List<Body> steps = new ArrayList<>(shape.steps().size());
        List<String> keys = new ArrayList<>(shape.steps().size());
        for (int i : shape.steps()) {
            steps.add(bodies.get(i));
            keys.add(nodes.get(i).id());
        }
        Map<MemberRole, Body> callbacks = new EnumMap<>(MemberRole.class);
        shape.callbacks().forEach((role, i) -> callbacks.put(role, bodies.get(i)));
        return new Parsed(shape.type(), steps, callbacks, keys);
    }
}
