package dev.steadfast.console.workflows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.console.workflows.WorkflowLayout.Box;
import dev.steadfast.console.workflows.WorkflowLayout.Flow;
import dev.steadfast.console.workflows.WorkflowLayout.Frame;
import dev.steadfast.console.workflows.WorkflowLayout.Job;
import dev.steadfast.console.workflows.WorkflowLayout.Layout;
import dev.steadfast.console.workflows.WorkflowLayout.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The workflow graph's layout without a server: where chains, groups, batches and nested workflows go. */
class WorkflowLayoutTest {

    static Job job(String id) {
        return new Job(id, "step", "t." + id, "available");
    }

    static Flow flow(String id, String kind, List<? extends Shape> members, List<Job> callbacks) {
        return new Flow(id, kind, "n-" + id, "running", List.copyOf(members), callbacks);
    }

    static Box box(Layout l, String id) {
        return l.boxes().stream().filter(b -> id.equals(b.id())).findFirst().orElseThrow();
    }

    static Frame frame(Layout l, String id) {
        return l.frames().stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void aChainRunsLeftToRightOnOneLine() {
        Layout l = WorkflowLayout.of(flow("c", "chain", List.of(job("a"), job("b"), job("c3")), List.of()));
        Box a = box(l, "a"), b = box(l, "b"), c = box(l, "c3");
        assertTrue(a.x() + a.w() < b.x() && b.x() + b.w() < c.x(), "left to right");
        assertEquals(a.y(), b.y());
        assertEquals(b.y(), c.y());
        assertEquals(2, l.edges().size(), "a to b, b to c");
        assertEquals(a.x() + a.w(), l.edges().get(0).x1());
        assertEquals(b.x(), l.edges().get(0).x2());
        assertEquals("/admin/jobs/a", a.href());
        assertEquals(List.of("c"), l.frames().stream().map(Frame::id).toList());
        assertEquals(l.width(), frame(l, "c").w());
        assertEquals(l.height(), frame(l, "c").h());
    }

    @Test
    void aGroupsJobsAreParallelLanesFannedOutAndIn() {
        Layout l = WorkflowLayout.of(flow("g", "group", List.of(job("a"), job("b"), job("c3")), List.of()));
        Box a = box(l, "a"), b = box(l, "b"), c = box(l, "c3");
        assertEquals(a.x(), b.x());
        assertEquals(b.x(), c.x());
        assertTrue(a.y() + a.h() < b.y() && b.y() + b.h() < c.y(), "one lane below the other");
        assertEquals(6, l.edges().size(), "into each lane and out of it");
        assertTrue(l.width() < 2 * WorkflowLayout.NODE_W, "one column wide");
    }

    @Test
    void aBatchsCallbacksComeAfterEveryJobThroughOneJoin() {
        Layout l = WorkflowLayout.of(flow("b", "batch", List.of(job("a"), job("b2")),
                List.of(new Job("ok", "on_success", "t.ok", "pending"), new Job("done", "on_complete", "t.d", "pending"))));
        Box a = box(l, "a"), b = box(l, "b2"), ok = box(l, "ok"), done = box(l, "done");
        assertTrue(ok.x() > a.x() + a.w() && ok.x() > b.x() + b.w(), "callbacks to the right of the jobs");
        assertEquals(ok.x(), done.x());
        assertTrue(ok.y() + ok.h() < done.y());
        // 2 in + 2 to the join + 2 from the join + 2 out
        assertEquals(8, l.edges().size());
        int joinX = l.edges().get(2).x2(); // into a, into b, then a to the join
        assertTrue(joinX > a.x() + a.w() && joinX < ok.x());
    }

    @Test
    void nestedWorkflowsAreFramesInsideTheirParentsAndNothingOverlaps() {
        Flow inner = flow("in", "chain", List.of(job("x"), job("y")), List.of());
        Flow group = flow("g", "group", List.of(job("g1"), inner), List.of());
        Flow root = flow("root", "chain", List.of(job("s0"), group, job("s2")), List.of());
        Layout l = WorkflowLayout.of(root);
        assertEquals(List.of("root", "g", "in"), l.frames().stream().map(Frame::id).toList(), "outermost first");
        assertEquals(List.of(0, 1, 2), l.frames().stream().map(Frame::depth).toList());
        assertInside(frame(l, "g"), box(l, "g1"));
        assertInside(frame(l, "in"), box(l, "x"));
        assertInside(frame(l, "in"), box(l, "y"));
        Frame g = frame(l, "g");
        Frame in = frame(l, "in");
        assertTrue(in.x() >= g.x() && in.x() + in.w() <= g.x() + g.w() && in.y() + in.h() <= g.y() + g.h());
        assertTrue(box(l, "s0").x() + box(l, "s0").w() < g.x() && g.x() + g.w() < box(l, "s2").x());
        for (Box b : l.boxes()) {
            assertInside(frame(l, "root"), b);
            for (Box o : l.boxes()) {
                if (b != o) {
                    assertFalse(b.x() < o.x() + o.w() && o.x() < b.x() + b.w() && b.y() < o.y() + o.h()
                            && o.y() < b.y() + b.h(), b + " overlaps " + o);
                }
            }
        }
        assertEquals("/admin/workflows/in", in.href());
        assertEquals("chain · n-in", in.title());
    }

    @Test
    void aHugeGroupIsDrawnUpToTheCapAndOneBoxForTheRest() {
        List<Job> jobs = new ArrayList<>();
        IntStream.range(0, 1000).forEach(i -> jobs.add(job("j" + i)));
        Layout l = WorkflowLayout.of(flow("g", "group", jobs, List.of()));
        assertEquals(WorkflowLayout.MAX_MEMBERS, l.boxes().size());
        Box more = l.boxes().get(l.boxes().size() - 1);
        assertEquals(1000 - (WorkflowLayout.MAX_MEMBERS - 1), more.more());
        assertEquals(null, more.href(), "it links nowhere");
        assertTrue(l.height() < 60 * WorkflowLayout.MAX_MEMBERS);
    }

    @Test
    void aLongTypeIsShortenedToFitItsBox() {
        Layout l = WorkflowLayout.of(flow("c", "chain", List.of(new Job("a", "step 0",
                "billing.invoices.monthly.generate", "active"), job("b")), List.of()));
        assertEquals("billing.invoices.mont…", box(l, "a").shortType());
        assertEquals(WorkflowLayout.MAX_LABEL, box(l, "a").shortType().length());
        assertEquals("t.b", box(l, "b").shortType());
    }

    @Test
    void curvesRunFromPointToPoint() {
        assertEquals("M0 10 C50 10 50 30 100 30", new WorkflowLayout.Edge(0, 10, 100, 30).path());
    }

    static void assertInside(Frame f, Box b) {
        assertTrue(b.x() >= f.x() && b.y() >= f.y() && b.x() + b.w() <= f.x() + f.w()
                && b.y() + b.h() <= f.y() + f.h(), b + " inside " + f);
    }
}
