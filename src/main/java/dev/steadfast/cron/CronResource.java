package dev.steadfast.cron;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Body;
import dev.steadfast.http.OffsetPagination;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.jobs.EnqueueCommand;
import dev.steadfast.jobs.EnqueueParser;
import dev.steadfast.model.CronRow;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Cron schedules (ojs-http-binding.md section 13, ojs-cron.md section 8): list, register, get, unregister, and
 * pause / resume (ojs-cron.md 8.5's toggle). Registration takes the binding's and SDKs' shape
 * ({@code cron}, {@code type}, {@code args}, {@code meta}, {@code options}) or the conformance suite's
 * ({@code expression}, {@code job_template}); answers carry the schedule under both {@code cron_job} and
 * {@code cron}.
 */
@Path("/ojs/v1/cron")
public class CronResource {

    private final CronService crons;
    private final ObjectMapper json;
    private final Clock clock;

    public CronResource(CronService crons, ObjectMapper json, Clock clock) {
        this.crons = crons;
        this.json = json;
        this.clock = clock;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list(@QueryParam("limit") String limit, @QueryParam("offset") String offset,
                              @QueryParam("page") String page, @QueryParam("per_page") String perPage) {
        int n = Params.integer(perPage != null ? "per_page" : "limit", perPage != null ? perPage : limit, 100, 1, 1000);
        int off = page != null ? (Params.integer("page", page, 1, 1, 1_000_000) - 1) * n
                : Params.integer("offset", offset, 0, 0, Integer.MAX_VALUE);
        return crons.list(n, off).map(p -> {
            List<CronView> out = new ArrayList<>(p.rows().size());
            p.rows().forEach(c -> out.add(CronJson.view(json, c)));
            return Responses.json(json, 200, new CronView.Page(out, out,
                    new OffsetPagination(p.total(), n, off, off + out.size() < p.total())));
        });
    }

    @POST
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> register(String body) {
        return Uni.createFrom().item(() -> command(Body.parse(json, body))).flatMap(crons::register)
                .map(c -> Response.fromResponse(Responses.json(json, 201, wrap(c)))
                        .location(URI.create("/ojs/v1/cron/" + c.name())).build());
    }

    @GET
    @Path("/{name}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("name") String name) {
        return crons.get(name).map(c -> Responses.json(json, 200, wrap(c)));
    }

    @DELETE
    @Path("/{name}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> delete(@PathParam("name") String name) {
        return crons.delete(name).map(c -> {
            CronView v = CronJson.view(json, c);
            return Responses.json(json, 200, new CronView.Answer(v, v, true, c.name()));
        });
    }

    @POST
    @Path("/{name}/pause")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> pause(@PathParam("name") String name) {
        return crons.setEnabled(name, false).map(c -> Responses.json(json, 200, wrap(c)));
    }

    @POST
    @Path("/{name}/resume")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> resume(@PathParam("name") String name) {
        return crons.setEnabled(name, true).map(c -> Responses.json(json, 200, wrap(c)));
    }

    private CronView.Answer wrap(CronRow c) {
        return CronView.Answer.of(CronJson.view(json, c));
    }

    /** The schedule a registration body describes: the one reading of it, shared with the gRPC binding. */
    public CronCommand command(Body b) {
        String name = b.string("name", true);
        String expression = b.has("cron") || !b.has("expression") ? b.string("cron", true) : b.string("expression", true);
        Body template = b.object("job_template");
        Body source = template != null ? template : b;
        EnqueueCommand t = EnqueueParser.template(json, source, clock.instant());
        Body o = source.object("options");
        for (String refused : List.of("id", "scheduled_at", "delay_until", "expires_at", "pending", "delay", "delay_ms")) {
            boolean inOptions = o != null && o.has(refused);
            if (inOptions || source.has(refused)) {
                String field = (template != null ? "job_template." : "") + (inOptions ? "options." : "") + refused;
                throw OjsException.invalidField(field, "'" + field + "' cannot be set in a cron template: every"
                        + " occurrence is a new job that runs when it fires.");
            }
        }
        if (t.rateLimit() != null) {
            String field = (template != null ? "job_template." : "") + "options.rate_limit";
            throw new OjsException(ErrorCode.UNSUPPORTED, "'" + field + "' with a key is not"
                    + " supported in a cron template; push rate-limited jobs on their own.", Map.of("field", field));
        }
        return new CronCommand(name, expression, b.string("timezone", false), b.string("overlap_policy", false),
                b.bool("enabled"), b.string("description", false), t);
    }
}
