package dev.steadfast.domain.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.workflow.StepGraph.Node;
import dev.steadfast.domain.workflow.StepGraph.Result;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StepGraphTest {

    private static Node n(String id, String... deps) {
        return new Node(id, List.of(deps));
    }

    private static Result read(Node... nodes) {
        return StepGraph.read(List.of(nodes));
    }

    private static void refused(Result r, int index, boolean malformed, String reason) {
        assertNull(r.shape());
        assertEquals(index, r.refusal().index());
        assertEquals(malformed, r.refusal().malformed());
        assertTrue(r.refusal().reason().contains(reason), r.refusal().reason());
    }

    @Test
    void aLinearPathIsAChainInPathOrderWhateverTheOrderWritten() {
        Result r = read(n("c", "b"), n("a"), n("b", "a"));
        assertEquals(WorkflowType.CHAIN, r.shape().type());
        assertEquals(List.of(1, 2, 0), r.shape().steps());
        assertEquals(Map.of(), r.shape().callbacks());
    }

    @Test
    void theJavaSdksChainIsAChain() {
        Result r = read(n("step_0"), n("step_1", "step_0"), n("step_2", "step_1"));
        assertEquals(WorkflowType.CHAIN, r.shape().type());
        assertEquals(List.of(0, 1, 2), r.shape().steps());
    }

    @Test
    void stepsWithoutDependenciesAreAGroup() {
        assertEquals(WorkflowType.GROUP, read(n("a"), n("b"), n("c")).shape().type());
        assertEquals(List.of(0), read(n("only")).shape().steps());
    }

    @Test
    void callbacksWaitingForEveryJobMakeABatch() {
        Result r = read(n("step_0"), n("step_1"), n("on_complete", "step_0", "step_1"),
                n("on_failure", "step_1", "step_0"));
        assertEquals(WorkflowType.BATCH, r.shape().type());
        assertEquals(List.of(0, 1), r.shape().steps());
        assertEquals(Map.of(MemberRole.ON_COMPLETE, 2, MemberRole.ON_FAILURE, 3), r.shape().callbacks());
    }

    @Test
    void aStepNamedLikeACallbackWithoutDependenciesIsAPlainStep() {
        Result r = read(n("on_success"), n("b"));
        assertEquals(WorkflowType.GROUP, r.shape().type());
    }

    @Test
    void graphsBeyondThePrimitivesAreRefusedNamingTheStep() {
        refused(read(n("a"), n("b"), n("c", "a", "b")), 2, false, "several steps");   // fan-in
        refused(read(n("a"), n("b", "a"), n("c", "a")), 2, false, "fan-out");          // fan-out
        refused(read(n("a"), n("b", "a"), n("x"), n("y", "x")), 2, false, "first step"); // two paths
        refused(read(n("a"), n("b"), n("on_complete", "a")), 2, false, "every job");    // callback not on all
        refused(read(n("a"), n("b", "a"), n("on_complete", "a", "b")), 1, false, "depend on nothing");
    }

    @Test
    void malformedGraphsAreTheClientsError() {
        refused(read(n("a"), n("a")), 1, true, "duplicate");
        refused(read(n("a"), n("b", "zz")), 1, true, "not a step");
        refused(read(n("a", "a")), 0, true, "itself");
        refused(read(n("a"), n("b", "a", "a")), 1, true, "twice");
        refused(read(n("a"), n("b", "c"), n("c", "b")), 1, true, "cycle");
        refused(read(n("b", "c"), n("c", "b")), 0, true, "cycle");
        refused(read(n("on_complete", "on_success"), n("on_success", "on_complete")), -1, true, "at least one job");
    }
}
