package dev.steadfast.domain.workflow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the HTTP binding's workflow shape (ojs-http-binding.md 14.1: {@code steps} with an {@code id} and
 * {@code depends_on} each, no {@code type}; the official Java SDK sends chains, groups and batches this way) as one
 * of the three primitives OJS 1.0 defines (ojs-workflows.md 1.1; general graphs are its future work, 15.1):
 * <ul>
 * <li>no step depends on another: a <b>group</b>;</li>
 * <li>the steps form one path (one step without dependencies, every other depending on exactly one step, no step a
 * dependency of two): a <b>chain</b>, in path order;</li>
 * <li>steps named {@code on_complete}, {@code on_success} or {@code on_failure} that depend on every other step,
 * beside other steps that depend on nothing: a <b>batch</b> with those callbacks (the Java SDK's batch).</li>
 * </ul>
 * Anything else (a diamond, a fan-in that is not a callback, two independent paths) is not one of them, and
 * {@link #read} says why. Ids must be unique and every dependency must name a step; a cycle is never a path.
 */
public final class StepGraph {

    /** One step as the client wrote it: its id and the ids it depends on. */
    public record Node(String id, List<String> dependsOn) {
    }

    /**
     * The primitive the steps express: the type, the step nodes' indexes in execution order (the chain's order;
     * for a group or batch the order written) and a batch's callbacks (role to node index).
     */
    public record Shape(WorkflowType type, List<Integer> steps, Map<MemberRole, Integer> callbacks) {
    }

    /** Why the steps are not a chain, group or batch, and which step ({@code -1} for the whole list) to name. */
    public record Refusal(int index, String reason, boolean malformed) {
    }

    private StepGraph() {
    }

    /** The shape, or the refusal; a malformed graph (duplicate id, unknown dependency) is the client's error. */
    public static Result read(List<Node> nodes) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            if (index.putIfAbsent(nodes.get(i).id(), i) != null) {
                return refuse(i, "duplicate step id '" + nodes.get(i).id() + "'", true);
            }
        }
        for (int i = 0; i < nodes.size(); i++) {
            Set<String> seen = new HashSet<>();
            for (String d : nodes.get(i).dependsOn()) {
                if (!index.containsKey(d)) {
                    return refuse(i, "depends on '" + d + "', which is not a step of this workflow", true);
                }
                if (d.equals(nodes.get(i).id())) {
                    return refuse(i, "depends on itself", true);
                }
                if (!seen.add(d)) {
                    return refuse(i, "names '" + d + "' twice in depends_on", true);
                }
            }
        }
        Map<MemberRole, Integer> callbacks = new EnumMap<>(MemberRole.class);
        List<Integer> plain = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            Optional<MemberRole> role = MemberRole.fromWire(nodes.get(i).id()).filter(r -> r != MemberRole.STEP);
            if (role.isPresent() && !nodes.get(i).dependsOn().isEmpty()) {
                callbacks.put(role.get(), i);
            } else {
                plain.add(i);
            }
        }
        if (!callbacks.isEmpty()) {
            return batch(nodes, plain, callbacks);
        }
        if (plain.stream().allMatch(i -> nodes.get(i).dependsOn().isEmpty())) {
            return new Result(new Shape(WorkflowType.GROUP, plain, Map.of()), null);
        }
        return chain(nodes, index);
    }

    private static Result batch(List<Node> nodes, List<Integer> plain, Map<MemberRole, Integer> callbacks) {
        if (plain.isEmpty()) {
            return refuse(-1, "a batch needs at least one job besides its callbacks", true);
        }
        Set<String> jobs = new HashSet<>();
        for (int i : plain) {
            if (!nodes.get(i).dependsOn().isEmpty()) {
                return refuse(i, "a batch's jobs depend on nothing; only its callbacks (on_complete, on_success,"
                        + " on_failure) wait, for every job", false);
            }
            jobs.add(nodes.get(i).id());
        }
        for (int c : callbacks.values()) {
            if (!new HashSet<>(nodes.get(c).dependsOn()).equals(jobs)) {
                return refuse(c, "a batch callback depends on exactly every job of the batch", false);
            }
        }
        return new Result(new Shape(WorkflowType.BATCH, plain, callbacks), null);
    }

    private static Result chain(List<Node> nodes, Map<String, Integer> index) {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).dependsOn().size() > 1) {
                return refuse(i, "a step that waits for several steps is a dependency graph; chain, group and"
                        + " batch are supported", false);
            }
        }
        int root = -1;
        int[] next = new int[nodes.size()];
        Arrays.fill(next, -1);
        for (int i = 0; i < nodes.size(); i++) {
            List<String> deps = nodes.get(i).dependsOn();
            if (deps.isEmpty()) {
                if (root >= 0) {
                    return refuse(i, "steps with dependencies run as a chain, which has one first step; '"
                            + nodes.get(root).id() + "' and '" + nodes.get(i).id() + "' both depend on nothing", false);
                }
                root = i;
            } else {
                int before = index.get(deps.get(0));
                if (next[before] >= 0) {
                    return refuse(i, "'" + deps.get(0) + "' is a dependency of two steps; fan-out is a group", false);
                }
                next[before] = i;
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int at = root; at >= 0 && order.size() <= nodes.size(); at = next[at]) {
            order.add(at);
        }
        if (root < 0 || order.size() != nodes.size()) {
            int away = firstMissing(order, nodes.size());
            return refuse(away, "the dependencies form a cycle", true);
        }
        return new Result(new Shape(WorkflowType.CHAIN, order, Map.of()), null);
    }

    private static int firstMissing(List<Integer> order, int n) {
        Set<Integer> in = new HashSet<>(order);
        for (int i = 0; i < n; i++) {
            if (!in.contains(i)) {
                return i;
            }
        }
        return -1;
    }

    private static Result refuse(int index, String reason, boolean malformed) {
        return new Result(null, new Refusal(index, reason, malformed));
    }

    /** Either a shape or a refusal. */
    public record Result(Shape shape, Refusal refusal) {
    }
}
