package dev.steadfast.console.workflows;

import java.util.List;

/**
 * The workflow page, loaded before rendering: the workflow, its graph laid out ({@link WorkflowLayout}), every
 * member of its tree as a table row, and which actions apply ({@code failed}: the jobs of the tree that failed for
 * good, which "retry failed" re-enqueues).
 */
public record WorkflowPageView(String id, String kind, String name, String state, String parentId, String created,
                               String started, String finished, int jobCount, int completedCount, int failedCount,
                               WorkflowLayout.Layout graph, List<Row> rows, boolean cancellable, int failed) {

    /** One member: a job (linked to its page) or a nested workflow (linked to its own). */
    public record Row(String label, String type, String state, String id, boolean workflow) {

        public String href() {
            return (workflow ? "/admin/workflows/" : "/admin/jobs/") + id;
        }
    }

    public int svgWidth() {
        return graph.width() + 4;
    }

    public int svgHeight() {
        return graph.height() + 4;
    }

    /** The SVG's viewBox: the drawing plus a margin for the frames' strokes. */
    public String viewBox() {
        return "-2 -2 " + (graph.width() + 4) + " " + (graph.height() + 4);
    }
}
