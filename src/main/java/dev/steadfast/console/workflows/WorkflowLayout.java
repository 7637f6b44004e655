package dev.steadfast.console.workflows;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each node of a workflow's graph goes on the console's workflow page (pure: shapes in, positions out; the
 * template only draws what this computes). A job is a box; a workflow is a frame around its members with its
 * kind and name on top: a chain's members left to right, a group's as parallel lanes one above the other (fanned
 * out from the frame's left edge and back in at its right edge), a batch's jobs as lanes followed by a column of
 * its callbacks, every job joined to every callback through one join point. A nested workflow is a frame inside
 * its parent's, laid out by the same rules. At most {@link #MAX_MEMBERS} members of one workflow are drawn; the
 * rest are one box saying how many more (the page's table lists them all), so a 1,000-job group stays a page.
 */
final class WorkflowLayout {

    public static final int NODE_W = 168;
    public static final int NODE_H = 40;
    static final int GAP_X = 36;
    static final int GAP_Y = 12;
    static final int PAD = 12;
    static final int LANE_PAD = 24;
    static final int HEADER = 22;
    public static final int MAX_MEMBERS = 40;
    static final int MAX_LABEL = 22;

    private WorkflowLayout() {
    }

    /** What is drawn: a job, or a workflow with its members (steps in order) and a batch's callbacks. */
    public sealed interface Shape permits Job, Flow, More {
    }

    /** A job: {@code role} "step 0" / "job 2" / "on_success"; {@code state} its job state (or "pruned"). */
    public record Job(String id, String role, String type, String state) implements Shape {
    }

    /** A workflow: {@code kind} chain, group or batch. */
    public record Flow(String id, String kind, String name, String state, List<Shape> members, List<Job> callbacks)
            implements Shape {
    }

    /** A job's box; {@code more} &gt; 0 for the box standing for members not drawn (then no id and no link). */
    public record Box(int x, int y, int w, int h, String id, String role, String type, String state, int more) {

        public String href() {
            return id == null ? null : "/admin/jobs/" + id;
        }

        public int textX() {
            return x + 8;
        }

        /** The type as it fits the box (about 22 characters at the console's 12 px); the full one is in its title. */
        public String shortType() {
            return type == null || type.length() <= MAX_LABEL ? type : type.substring(0, MAX_LABEL - 1) + "…";
        }

        public int typeY() {
            return y + 16;
        }

        public int subY() {
            return y + 32;
        }

        public int moreY() {
            return y + 24;
        }
    }

    /** A workflow's frame; {@code depth} 0 for the workflow of the page. */
    public record Frame(int x, int y, int w, int h, String id, String kind, String name, String state, int depth) {

        public String href() {
            return "/admin/workflows/" + id;
        }

        public int textX() {
            return x + 8;
        }

        public int textY() {
            return y + 15;
        }

        public String title() {
            return name == null || name.isEmpty() ? kind : kind + " · " + name;
        }
    }

    /** A connection from (x1, y1) to (x2, y2), drawn as a horizontal S-curve. */
    public record Edge(int x1, int y1, int x2, int y2) {

        public String path() {
            int mx = (x1 + x2) / 2;
            return "M" + x1 + " " + y1 + " C" + mx + " " + y1 + " " + mx + " " + y2 + " " + x2 + " " + y2;
        }
    }

    /** The whole drawing, its size, and what is in it (frames outermost first, so inner ones are drawn on top). */
    public record Layout(int width, int height, List<Frame> frames, List<Box> boxes, List<Edge> edges) {
    }

    private record Size(int w, int h) {
    }

    /** An in and an out point on a placed shape's vertical middle. */
    private record Ports(int inX, int outX, int y) {
    }

    public static Layout of(Flow root) {
        List<Frame> frames = new ArrayList<>();
        List<Box> boxes = new ArrayList<>();
        List<Edge> edges = new ArrayList<>();
        Size s = size(root);
        place(root, 0, 0, 0, frames, boxes, edges);
        return new Layout(s.w(), s.h(), frames, boxes, edges);
    }

    /** The members drawn: up to MAX_MEMBERS, then a box for the rest. */
    private static List<Shape> drawn(Flow f) {
        if (f.members().size() <= MAX_MEMBERS) {
            return f.members();
        }
        List<Shape> out = new ArrayList<>(f.members().subList(0, MAX_MEMBERS - 1));
        out.add(new More(f.members().size() - (MAX_MEMBERS - 1)));
        return out;
    }

    /** Stands for members not drawn; laid out as a job. */
    private record More(int count) implements Shape {
    }

    private static Size size(Shape s) {
        if (!(s instanceof Flow f)) {
            return new Size(NODE_W, NODE_H);
        }
        List<Size> ms = drawn(f).stream().map(WorkflowLayout::size).toList();
        if (f.kind().equals("chain")) {
            int w = ms.stream().mapToInt(Size::w).sum() + GAP_X * Math.max(0, ms.size() - 1);
            int h = ms.stream().mapToInt(Size::h).max().orElse(NODE_H);
            return new Size(2 * PAD + w, HEADER + 2 * PAD + h);
        }
        int lanesW = ms.stream().mapToInt(Size::w).max().orElse(NODE_W);
        int lanesH = column(ms);
        if (f.callbacks().isEmpty()) {
            return new Size(2 * LANE_PAD + lanesW, HEADER + 2 * PAD + lanesH);
        }
        int cbH = f.callbacks().size() * NODE_H + GAP_Y * (f.callbacks().size() - 1);
        return new Size(2 * LANE_PAD + lanesW + 2 * GAP_X + NODE_W, HEADER + 2 * PAD + Math.max(lanesH, cbH));
    }

    private static int column(List<Size> ms) {
        return ms.stream().mapToInt(Size::h).sum() + GAP_Y * Math.max(0, ms.size() - 1);
    }

    private static Ports place(Shape s, int x, int y, int depth, List<Frame> frames, List<Box> boxes,
                               List<Edge> edges) {
        if (s instanceof Job j) {
            boxes.add(new Box(x, y, NODE_W, NODE_H, j.id(), j.role(), j.type(), j.state(), 0));
            return new Ports(x, x + NODE_W, y + NODE_H / 2);
        }
        if (s instanceof More m) {
            boxes.add(new Box(x, y, NODE_W, NODE_H, null, "not drawn", "+" + m.count() + " more", "more", m.count()));
            return new Ports(x, x + NODE_W, y + NODE_H / 2);
        }
        Flow f = (Flow) s;
        Size size = size(f);
        frames.add(new Frame(x, y, size.w(), size.h(), f.id(), f.kind(), f.name(), f.state(), depth));
        int top = y + HEADER + PAD;
        int inner = size.h() - HEADER - 2 * PAD;
        int mid = top + inner / 2;
        List<Shape> members = drawn(f);
        if (f.kind().equals("chain")) {
            int cx = x + PAD;
            Ports prev = null;
            for (Shape m : members) {
                Size ms = size(m);
                Ports p = place(m, cx, mid - ms.h() / 2, depth + 1, frames, boxes, edges);
                if (prev != null) {
                    edges.add(new Edge(prev.outX(), prev.y(), p.inX(), p.y()));
                }
                prev = p;
                cx += ms.w() + GAP_X;
            }
            return new Ports(x, x + size.w(), mid);
        }
        List<Size> sizes = members.stream().map(WorkflowLayout::size).toList();
        int lanesW = sizes.stream().mapToInt(Size::w).max().orElse(NODE_W);
        int ly = mid - column(sizes) / 2;
        List<Ports> lanes = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            Ports p = place(members.get(i), x + LANE_PAD, ly, depth + 1, frames, boxes, edges);
            edges.add(new Edge(x, mid, p.inX(), p.y()));
            lanes.add(p);
            ly += sizes.get(i).h() + GAP_Y;
        }
        if (f.callbacks().isEmpty()) {
            lanes.forEach(p -> edges.add(new Edge(p.outX(), p.y(), x + size.w(), mid)));
            return new Ports(x, x + size.w(), mid);
        }
        int joinX = x + LANE_PAD + lanesW + GAP_X;
        lanes.forEach(p -> edges.add(new Edge(p.outX(), p.y(), joinX, mid)));
        int n = f.callbacks().size();
        int cy = mid - (n * NODE_H + GAP_Y * (n - 1)) / 2;
        for (Job cb : f.callbacks()) {
            Ports p = place(cb, joinX + GAP_X, cy, depth + 1, frames, boxes, edges);
            edges.add(new Edge(joinX, mid, p.inX(), p.y()));
            edges.add(new Edge(p.outX(), p.y(), x + size.w(), mid));
            cy += NODE_H + GAP_Y;
        }
        return new Ports(x, x + size.w(), mid);
    }
}
