package dev.steadfast.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.workflow.MemberRole;
import dev.steadfast.domain.workflow.WorkflowType;
import dev.steadfast.service.EnqueueCommand;
import dev.steadfast.service.WorkflowCommand;
import dev.steadfast.service.WorkflowService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Workflows (ojs-http-binding.md section 14, ojs-workflows.md section 11): create, get, cancel. The body is the
 * workflow spec's and the official SDKs' shape: {@code type} chain / group / batch, {@code name}, a chain's
 * {@code steps} or a group's / batch's {@code jobs} (each a job as PUSH takes it), a batch's {@code callbacks};
 * or the binding's shape, steps with {@code id} and {@code depends_on} ({@link BindingWorkflow}). A top-level
 * {@code options} object holds defaults for every job's options (a job's own keys win). Nested workflows and
 * graphs that are none of the three primitives are refused (422 unsupported).
 */
@Path("/ojs/v1/workflows")
public class WorkflowResource {

    private final WorkflowService workflows;
    private final ObjectMapper json;
    private final Clock clock;

    public WorkflowResource(WorkflowService workflows, ObjectMapper json, Clock clock) {
        this.workflows = workflows;
        this.json = json;
        this.clock = clock;
    }

    @POST
    public Uni<Response> create(String body) {
        return Uni.createFrom().item(() -> command(Body.parse(json, body))).flatMap(workflows::create)
                .map(v -> Response.fromResponse(Responses.json(json, 201, WorkflowJson.wrap(json, v)))
                        .location(URI.create("/ojs/v1/workflows/" + v.workflow().id())).build());
    }

    @GET
    @Path("/{id}")
    public Uni<Response> get(@PathParam("id") String id) {
        return workflows.get(workflowId(id)).map(v -> Responses.ok(json, WorkflowJson.wrap(json, v)));
    }

    @DELETE
    @Path("/{id}")
    public Uni<Response> cancel(@PathParam("id") String id) {
        return workflows.cancel(workflowId(id)).map(v -> Responses.ok(json, WorkflowJson.wrap(json, v)));
    }

    private static UUID workflowId(String id) {
        return Params.uuid(id).orElseThrow(() -> OjsException.notFound("workflow", id));
    }

    private WorkflowCommand command(Body b) {
        Body defaults = b.object("options");
        Instant now = clock.instant();
        if (BindingWorkflow.applies(b)) {
            return BindingWorkflow.read(b, name(b), j -> job(j, defaults, now));
        }
        String t = b.string("type", false);
        if (t == null) {
            throw OjsException.invalidField("type", "'type' is required: one of chain, group, batch (or send"
                    + " 'steps' with 'id' and 'depends_on' each).", "chain, group or batch", "nothing");
        }
        WorkflowType type = WorkflowType.fromWire(t).orElseThrow(() -> OjsException.invalidField("type",
                "'type' must be one of chain, group, batch.", "chain, group or batch", t));
        String name = name(b);
        String list = type == WorkflowType.CHAIN ? "steps" : "jobs";
        String other = type == WorkflowType.CHAIN ? "jobs" : "steps";
        if (!b.has(list) && b.has(other)) {
            list = other; // accepted too: the list's name carries no meaning the type does not
        }
        JsonNode items = b.array(list, true);
        List<EnqueueCommand> steps = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            steps.add(job(Body.element(json, items.get(i), list + "[" + i + "]"), defaults, now));
        }
        Map<MemberRole, EnqueueCommand> callbacks = new EnumMap<>(MemberRole.class);
        Body cb = b.object("callbacks");
        if (cb != null && type != WorkflowType.BATCH) {
            throw OjsException.invalidField("callbacks", "Only a batch takes 'callbacks'.");
        }
        if (cb != null) {
            for (MemberRole r : List.of(MemberRole.ON_COMPLETE, MemberRole.ON_SUCCESS, MemberRole.ON_FAILURE)) {
                Body c = cb.object(r.wire());
                if (c != null) {
                    callbacks.put(r, job(c, defaults, now));
                }
            }
        }
        return new WorkflowCommand(type, name, steps, callbacks);
    }

    private static String name(Body b) {
        String name = b.string("name", false);
        if (name != null && name.length() > 255) {
            throw OjsException.invalidField("name", "'name' must be at most 255 characters.");
        }
        return name;
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

    private EnqueueCommand job(Body given, Body defaults, Instant now) {
        Body b = withDefaults(given, defaults);
        for (String nested : List.of("steps", "jobs", "callbacks")) {
            if (b.has(nested)) {
                throw new OjsException(ErrorCode.UNSUPPORTED, "Nested workflows are not supported: '"
                        + b.field(nested) + "'; create the inner workflow on its own.", Map.of("path", b.field(nested)));
            }
        }
        JsonNode deps = b.raw("depends_on");
        if (deps != null && !(deps.isArray() && deps.isEmpty())) {
            throw new OjsException(ErrorCode.UNSUPPORTED, "Dependency graphs ('" + b.field("depends_on")
                    + "') are not supported; use chain, group or batch.", Map.of("path", b.field("depends_on")));
        }
        return EnqueueParser.parse(json, b, now);
    }
}
