package dev.steadfast.console.workflows;

import dev.steadfast.console.Format;
import dev.steadfast.console.Links;
import dev.steadfast.model.WorkflowFilter;
import dev.steadfast.store.workflows.WorkflowListStore.Listed;
import java.time.Instant;
import java.util.List;

/** The workflows list page: the filter as the form shows it, a page of workflows, and the links to page on. */
public record WorkflowListView(Form form, List<String> states, List<String> types, List<Line> workflows, long total,
                               String nextHref, String firstHref, String message) {

    /** The filter's values for the form's fields (empty when not set). */
    public record Form(String state, String type, String name, String createdAfter, String createdBefore,
                       boolean nested, boolean filtered) {

        static Form of(WorkflowFilter f) {
            return new Form(f.state() == null ? "" : f.state().wire(), f.type() == null ? "" : f.type().wire(),
                    f.name() == null ? "" : f.name(), Format.input(f.createdAfter()), Format.input(f.createdBefore()),
                    f.nested(), f.state() != null || f.type() != null || f.name() != null || f.createdAfter() != null
                    || f.createdBefore() != null || f.nested());
        }

        String href(String cursor) {
            return Links.to("/admin/workflows").with("state", state).with("type", type).with("name", name)
                    .with("created_after", createdAfter).with("created_before", createdBefore)
                    .with("nested", nested ? "true" : null).with("cursor", cursor).toString();
        }
    }

    /** One workflow: its own steps counted by recorded outcome. */
    public record Line(String id, String kind, String name, String state, String parentId, String created,
                       String createdIso, String createdAgo, int total, int completed, int failed, int cancelled) {

        static Line of(Listed w, Instant now) {
            return new Line(w.id().toString(), w.type().wire(), w.name(), w.state().wire(),
                    w.parentId() == null ? null : w.parentId().toString(), Format.time(w.createdAt()),
                    Format.iso(w.createdAt()), Format.relative(w.createdAt(), now), w.stepsTotal(),
                    w.stepsCompleted(), w.stepsFailed(), w.stepsCancelled());
        }

        public String href() {
            return "/admin/workflows/" + id;
        }
    }
}
