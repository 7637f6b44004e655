package dev.steadfast.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.TenantId;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.RequestContext;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.model.JobRow;
import dev.steadfast.queues.RateLimitResource;
import dev.steadfast.queues.RateLimits;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** PUSH, INFO and CANCEL (ojs-http-binding.md sections 9.1, 9.3, 9.4). */
@Path("/ojs/v1/jobs")
class JobResource {

    private final JobService jobs;
    private final ObjectMapper json;
    private final Clock clock;
    private final RateLimits rateLimits;
    private final Pushes pushes;

    public JobResource(JobService jobs, ObjectMapper json, Clock clock, RateLimits rateLimits, Pushes pushes) {
        this.pushes = pushes;
        this.rateLimits = rateLimits;
        this.jobs = jobs;
        this.json = json;
        this.clock = clock;
    }

    /**
     * PUSH: 201 with the new job, or, when its unique policy says ignore and a job already holds the key, 200 with
     * that job and {@code "deduplicated": true} (ojs-unique-jobs.md 5.4). A created job with a rate limit key gets
     * its key's X-RateLimit-* headers (ojs-rate-limiting.md 10.4): the job was accepted and waits for its key. Args
     * are first checked against their type's registered schema ({@link ArgsValidation}): 400
     * {@code schema_validation}, or {@code warnings}.
     */
    @POST
    @RolesAllowed({Roles.PRODUCER, Roles.ADMIN})
    public Uni<Response> push(String body) {
        return Uni.createFrom().item(() -> EnqueueParser.parse(json, Body.parse(json, body), clock.instant()))
                .flatMap(c -> pushes.push(c).flatMap(pushed -> {
                    List<String> warnings = pushed.warnings();
                    if (pushed.outcome() instanceof PushOutcome.Deduplicated d) {
                        return Uni.createFrom().item(Responses.ok(json,
                                new JobAnswer<>(JobView.of(json, d.existing()), true, warnings)));
                    }
                    PushOutcome.Created created = (PushOutcome.Created) pushed.outcome();
                    JobRow row = created.job();
                    Response.ResponseBuilder r = withPressure(Response.fromResponse(Responses.json(json, 201,
                            new JobAnswer<>(JobView.of(json, row), null, warnings)))
                            .location(URI.create("/ojs/v1/jobs/" + row.id())), created.pressure());
                    return c.rateLimit() == null ? Uni.createFrom().item(r.build())
                            : rateLimits.inspect(c.rateLimit().key())
                                    .map(s -> RateLimitResource.withHeaders(r, s).build())
                                    // the job is in: a failed look at its key only costs the headers
                                    .onFailure().recoverWithItem(e -> r.build());
                }));
    }

    /** X-OJS-Queue-Pressure (ojs-backpressure.md 6) when a bounded queue is past its warning threshold. */
    private static Response.ResponseBuilder withPressure(Response.ResponseBuilder r, Double pressure) {
        return pressure == null ? r : r.header("X-OJS-Queue-Pressure",
                String.format(Locale.ROOT, "%.2f", pressure));
    }

    /** PUSH batch: {@code {"jobs": [...]}}, all or nothing (ojs-http-binding.md 9.2). */
    @POST
    @Path("/batch")
    @RolesAllowed({Roles.PRODUCER, Roles.ADMIN})
    public Uni<Response> pushAll(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body).array("jobs", true))
                .flatMap(list -> pushes.pushAll(list, RequestContext.trace(), RequestContext.tenantHeader(), all -> {
                    List<JobView> views = new ArrayList<>(all.jobs().size());
                    all.jobs().forEach(r -> views.add(JobView.of(json, r)));
                    return Responses.json(json, 201, new JobBatch(views, views.size(), all.warnings()));
                }));
    }

    /**
     * Bulk enqueue (ojs-bulk-operations.md 5): {@code {"jobs": [...], "atomicity": "partial"|"atomic"}}, partial by
     * default. Partial: each job stands alone; 200 when all were created (or deduplicated), 207 when some were
     * refused, 422 when all were; {@code items} has one result per job, in order. Atomic: all or nothing; a refusal
     * answers the refused job's error envelope (400/409, naming its index) and nothing is created. More jobs than
     * steadfast.jobs.max-batch: 413.
     */
    @POST
    @Path("/bulk")
    @RolesAllowed({Roles.PRODUCER, Roles.ADMIN})
    public Uni<Response> bulk(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body))
                .flatMap(b -> pushes.bulk(b, RequestContext.trace(), RequestContext.tenantHeader()))
                .map(b -> bulkResponse(b.outcomes(), b.warnings()));
    }

    private Response bulkResponse(List<PushOutcome> outcomes, Map<Integer, List<String>> warnings) {
        List<BulkAnswer.Item> items = new ArrayList<>(outcomes.size());
        int failed = 0;
        for (int i = 0; i < outcomes.size(); i++) {
            PushOutcome o = outcomes.get(i);
            if (o instanceof PushOutcome.Created c) {
                items.add(new BulkAnswer.Item(i, "created", JobView.of(json, c.job()), warnings.get(i), null));
            } else if (o instanceof PushOutcome.Deduplicated d) {
                items.add(new BulkAnswer.Item(i, "duplicate", JobView.of(json, d.existing()), null, null));
            } else {
                failed++;
                items.add(new BulkAnswer.Item(i, "failed", null, null,
                        BulkAnswer.ItemError.of(((PushOutcome.Refused) o).error())));
            }
        }
        BulkAnswer out = new BulkAnswer(outcomes.size(), outcomes.size() - failed, failed, items);
        int status = failed == 0 ? 200 : failed == outcomes.size() ? 422 : 207;
        return Responses.json(json, status, out);
    }

    @GET
    @Path("/{id}")
    @RolesAllowed({Roles.PRODUCER, Roles.READONLY, Roles.ADMIN})
    public Uni<Response> info(@PathParam("id") String id) {
        return jobs.infoFor(Params.jobId(id), tenantHeader())
                .map(row -> Responses.ok(json, JobAnswer.of(JobView.of(json, row))));
    }

    /** The request's X-OJS-Tenant, checked; null when it names none. */
    private static String tenantHeader() {
        return TenantId.header(RequestContext.tenantHeader());
    }

    @DELETE
    @Path("/{id}")
    @RolesAllowed({Roles.PRODUCER, Roles.ADMIN})
    public Uni<Response> cancel(@PathParam("id") String id) {
        return jobs.cancelFor(Params.jobId(id), tenantHeader()).map(c -> {
            return Responses.ok(json, JobAnswer.of(JobChange.cancelled(JobView.of(json, c.job()),
                    c.previousState().wire())));
        });
    }

    @POST
    @Path("/{id}/activate")
    @RolesAllowed({Roles.PRODUCER, Roles.ADMIN})
    public Uni<Response> activate(@PathParam("id") String id) {
        return jobs.activate(Params.jobId(id))
                .map(row -> Responses.ok(json, JobAnswer.of(JobChange.activated(JobView.of(json, row)))));
    }
}
