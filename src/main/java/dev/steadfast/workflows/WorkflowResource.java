package dev.steadfast.workflows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.jobs.EnqueueCommand;
import dev.steadfast.jobs.EnqueueParser;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Workflows (ojs-http-binding.md section 14, ojs-workflows.md section 11): create, get, cancel, and a list. The body is the
 * workflow spec's and the official SDKs' shape: {@code type} chain / group / batch, {@code name}, a chain's
 * {@code steps} or a group's / batch's {@code jobs} (each a job as PUSH takes it), a batch's {@code callbacks}.
 * Nested workflows and the binding's {@code depends_on} graph are refused (422 unsupported).
 */
@Path("/ojs/v1/workflows")
public class WorkflowResource {

    /** ojs-http-binding.md 17.1: {@code limit} defaults to 50, at most 200. */
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 200;

    private final WorkflowService workflows;
    private final WorkflowListing listing;
    private final ObjectMapper json;
    private final Clock clock;

    public WorkflowResource(WorkflowService workflows, WorkflowListing listing, ObjectMapper json, Clock clock) {
        this.workflows = workflows;
        this.listing = listing;
        this.json = json;
        this.clock = clock;
    }

    @POST
    @RolesAllowed({Roles.PRODUCER, Roles.ADMIN})
    public Uni<Response> create(String body) {
        return Uni.createFrom().item(() -> command(Body.parse(json, body))).flatMap(workflows::create)
                .map(v -> Response.fromResponse(Responses.json(json, 201, WorkflowJson.wrap(v)))
                        .location(URI.create("/ojs/v1/workflows/" + v.workflow().id())).build());
    }

    /**
     * Lists workflows newest first ({@link WorkflowListQuery}'s filters, {@code limit} and {@code cursor}); top-level
     * workflows only unless {@code nested=true}.
     */
    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list(@QueryParam("state") String state, @QueryParam("type") String type,
                              @QueryParam("name") String name, @QueryParam("created_after") String createdAfter,
                              @QueryParam("created_before") String createdBefore, @QueryParam("nested") String nested,
                              @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        var filter = WorkflowListQuery.parse(state, type, name, createdAfter, createdBefore, nested);
        int n = Params.integer("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
        return listing.page(filter, cursor, n).map(p -> Responses.ok(json, WorkflowListAnswer.of(p, n)));
    }

    @GET
    @Path("/{id}")
    @RolesAllowed({Roles.PRODUCER, Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("id") String id) {
        return workflows.get(workflowId(id)).map(v -> Responses.ok(json, WorkflowJson.wrap(v)));
    }

    @DELETE
    @Path("/{id}")
    @RolesAllowed({Roles.PRODUCER, Roles.ADMIN})
    public Uni<Response> cancel(@PathParam("id") String id) {
        return workflows.cancel(workflowId(id)).map(v -> Responses.ok(json, WorkflowJson.wrap(v)));
    }

    private static UUID workflowId(String id) {
        return Params.uuid(id).orElseThrow(() -> OjsException.notFound("workflow", id));
    }

    /**
     * Levels of workflows, the outermost included (ojs-workflows.md 10.2: at least 3 SHOULD be supported; deeper
     * definitions are refused when created).
     */
    static final int MAX_DEPTH = 3;

    /** The workflow a creation body describes: the one reading of it, shared with the gRPC binding. */
    public WorkflowCommand command(Body b) {
        Body defaults = b.object("options");
        Instant now = clock.instant();
        if (BindingWorkflow.applies(b)) {
            return binding(b, defaults, now);
        }
        return command(b, 1, now, defaults);
    }

    /** The binding's shape, read as a chain, group or batch; each member's options over the workflow's. */
    private WorkflowCommand binding(Body b, Body defaults, Instant now) {
        BindingWorkflow.Parsed p = BindingWorkflow.read(b);
        List<WorkflowCommand.Step> steps = new ArrayList<>(p.steps().size());
        Map<WorkflowCommand.Slot, Duration> delays = new HashMap<>();
        for (int i = 0; i < p.steps().size(); i++) {
            Body step = withDefaults(p.steps().get(i), defaults);
            steps.add(new WorkflowCommand.Job(job(step, now)));
            delay(delays, step, MemberRole.STEP, i);
        }
        Map<MemberRole, EnqueueCommand> callbacks = new EnumMap<>(MemberRole.class);
        p.callbacks().forEach((role, body) -> {
            Body c = withDefaults(body, defaults);
            callbacks.put(role, job(c, now));
            delay(delays, c, role, 0);
        });
        return new WorkflowCommand(p.type(), name(b), steps, callbacks, delays, p.keys());
    }

    /** {@code defaults}: the enclosing workflows' {@code options}, under each job's own. */
    private WorkflowCommand command(Body b, int depth, Instant now, Body defaults) {
        String t = b.string("type", false);
        if (t == null) {
            throw OjsException.invalidField(b.field("type"), "'" + b.field("type") + "' is required: one of chain,"
                    + " group, batch (or, at the top, 'steps' with 'id' and 'depends_on' each).",
                    "chain, group or batch", "nothing");
        }
        WorkflowType type = WorkflowType.fromWire(t).orElseThrow(() -> OjsException.invalidField(b.field("type"),
                "'" + b.field("type") + "' must be one of chain, group, batch.", "chain, group or batch", t));
        String name = name(b);
        String list = type == WorkflowType.CHAIN ? "steps" : "jobs";
        String other = type == WorkflowType.CHAIN ? "jobs" : "steps";
        if (!b.has(list) && b.has(other)) {
            list = other; // accepted too: the list's name carries no meaning the type does not
        }
        JsonNode items = b.array(list, true);
        List<WorkflowCommand.Step> steps = new ArrayList<>(items.size());
        Map<WorkflowCommand.Slot, Duration> delays = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            Body step = withDefaults(Body.element(json, items.get(i), b.field(list) + "[" + i + "]"), defaults);
            String inner = nested(step);
            if (inner != null) {
                if (depth >= MAX_DEPTH) {
                    throw new OjsException(ErrorCode.UNSUPPORTED, "Workflows nest at most " + MAX_DEPTH
                            + " levels deep, the outermost included: '" + step.field(inner)
                            + "' would be level " + (depth + 1) + ".", Map.of("path", step.field(inner),
                            "max_depth", MAX_DEPTH));
                }
                // its options (over the enclosing defaults) are the defaults of its own jobs
                steps.add(new WorkflowCommand.Nested(command(step, depth + 1, now, step.object("options"))));
            } else {
                steps.add(new WorkflowCommand.Job(job(step, now)));
                delay(delays, step, MemberRole.STEP, i);
            }
        }
        Map<MemberRole, EnqueueCommand> callbacks = new EnumMap<>(MemberRole.class);
        Body cb = b.object("callbacks");
        if (cb != null && type != WorkflowType.BATCH) {
            throw OjsException.invalidField(b.field("callbacks"), "Only a batch takes 'callbacks'.");
        }
        if (cb != null) {
            for (MemberRole r : List.of(MemberRole.ON_COMPLETE, MemberRole.ON_SUCCESS, MemberRole.ON_FAILURE)) {
                Body c = cb.object(r.wire());
                if (c != null) {
                    c = withDefaults(c, defaults);
                    if (nested(c) != null) {
                        throw new OjsException(ErrorCode.UNSUPPORTED, "A callback is a job, not a workflow: '"
                                + c.field(nested(c)) + "'.", Map.of("path", c.field(nested(c))));
                    }
                    callbacks.put(r, job(c, now));
                    delay(delays, c, r, 0);
                }
            }
        }
        return new WorkflowCommand(type, name, steps, callbacks, delays);
    }

    /** The workflow's {@code name}, at most 255 characters. */
    private static String name(Body b) {
        String name = b.string("name", false);
        if (name != null && name.length() > 255) {
            throw OjsException.invalidField(b.field("name"), "'" + b.field("name") + "' must be at most 255 characters.");
        }
        return name;
    }

    /** Keeps a member's {@code options.delay} apart: a member that waits counts it from when it is enqueued. */
    private static void delay(Map<WorkflowCommand.Slot, Duration> delays, Body job, MemberRole role, int position) {
        Duration d = EnqueueParser.delay(job.object("options"));
        if (d != null && !d.isZero()) {
            delays.put(new WorkflowCommand.Slot(role, position), d);
        }
    }

    /** The list that makes a step a nested workflow ({@code steps}, {@code jobs}), or null for a job. */
    private static String nested(Body b) {
        for (String list : List.of("steps", "jobs")) {
            if (b.has(list)) {
                return list;
            }
        }
        return null;
    }

    /** The workflow's {@code options} under the job's own (a job's keys win), when the job's options are an object. */
    private static Body withDefaults(Body b, Body defaults) {
        JsonNode own = b.raw("options");
        if (defaults == null || (own != null && !own.isObject())) {
            return b;
        }
        ObjectNode options = defaults.node().deepCopy();
        if (own != null) {
            options.setAll((ObjectNode) own);
        }
        ObjectNode job = b.node().deepCopy();
        job.set("options", options);
        return b.with(job);
    }

    private EnqueueCommand job(Body b, Instant now) {
        if (b.has("callbacks")) {
            throw OjsException.invalidField(b.field("callbacks"), "Only a batch takes 'callbacks'.");
        }
        JsonNode deps = b.raw("depends_on");
        if (deps != null && !(deps.isArray() && deps.isEmpty())) {
            throw new OjsException(ErrorCode.UNSUPPORTED, "Dependency graphs ('" + b.field("depends_on")
                    + "') are not supported; use chain, group or batch.", Map.of("path", b.field("depends_on")));
        }
        return EnqueueParser.parse(json, b, now);
    }
}
