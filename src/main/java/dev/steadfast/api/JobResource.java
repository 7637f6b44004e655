package dev.steadfast.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.OjsException;
import dev.steadfast.service.JobService;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Map;
import java.util.UUID;

/** PUSH, INFO and CANCEL (ojs-http-binding.md sections 9.1, 9.3, 9.4). */
@Path("/ojs/v1/jobs")
public class JobResource {

    private final JobService jobs;
    private final dev.steadfast.config.SteadfastConfig config;
    private final ObjectMapper json;
    private final java.time.Clock clock;

    public JobResource(JobService jobs, dev.steadfast.config.SteadfastConfig config, ObjectMapper json,
                       java.time.Clock clock) {
        this.jobs = jobs;
        this.config = config;
        this.json = json;
        this.clock = clock;
    }

    @POST
    public Uni<Response> push(String body) {
        return Uni.createFrom().item(() -> EnqueueParser.parse(json, Body.parse(json, body), clock.instant()))
                .flatMap(jobs::push)
                .map(row -> Response.fromResponse(Responses.json(json, 201, Map.of("job", JobJson.view(json, row))))
                        .location(URI.create("/ojs/v1/jobs/" + row.id())).build());
    }

    /** PUSH batch: {@code {"jobs": [...]}}, all or nothing (ojs-http-binding.md 9.2). */
    @POST
    @Path("/batch")
    public Uni<Response> pushAll(String body) {
        return Uni.createFrom().item(() -> {
            Body b = Body.parse(json, body);
            com.fasterxml.jackson.databind.JsonNode list = b.array("jobs", true);
            int max = config.jobs().maxBatch();
            if (list.isEmpty() || list.size() > max) {
                throw OjsException.invalidField("jobs", "'jobs' must hold 1 to " + max + " jobs.",
                        "1 to " + max + " jobs", list.size() + " jobs");
            }
            java.time.Instant now = clock.instant();
            java.util.List<dev.steadfast.service.EnqueueCommand> commands = new java.util.ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                try {
                    commands.add(EnqueueParser.parse(json, Body.element(json, list.get(i), "jobs[" + i + "]"), now));
                } catch (OjsException e) {
                    throw JobService.atIndex(e, i);
                }
            }
            return commands;
        }).flatMap(jobs::pushAll).map(rows -> {
            java.util.List<Map<String, Object>> views = new java.util.ArrayList<>(rows.size());
            rows.forEach(r -> views.add(JobJson.view(json, r)));
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            out.put("jobs", views);
            out.put("count", views.size());
            return Responses.json(json, 201, out);
        });
    }

    @GET
    @Path("/{id}")
    public Uni<Response> info(@PathParam("id") String id) {
        return jobs.info(jobId(id)).map(row -> Responses.ok(json, Map.of("job", JobJson.view(json, row))));
    }

    @DELETE
    @Path("/{id}")
    public Uni<Response> cancel(@PathParam("id") String id) {
        return jobs.cancel(jobId(id)).map(c -> {
            Map<String, Object> view = JobJson.view(json, c.job());
            view.put("previous_state", c.previousState().wire());
            return Responses.ok(json, Map.of("job", view));
        });
    }

    @POST
    @Path("/{id}/activate")
    public Uni<Response> activate(@PathParam("id") String id) {
        return jobs.activate(jobId(id)).map(row -> {
            Map<String, Object> view = JobJson.view(json, row);
            view.put("previous_state", "pending");
            view.put("activated_at", view.get("enqueued_at"));
            return Responses.ok(json, Map.of("job", view));
        });
    }

    /** A job id from a path: anything that is not a UUID cannot name a job, so it is simply not found. */
    static UUID jobId(String id) {
        return Params.uuid(id).orElseThrow(() -> OjsException.notFound("job", id));
    }
}
