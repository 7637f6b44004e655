package dev.steadfast.queues;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.QueueBound;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/**
 * A queue's backpressure configuration (ojs-backpressure.md 5): {@code PUT /ojs/v1/admin/queues/{name}/config}
 * with {@code {"backpressure": {"max_depth": n, "strategy": "reject", "warning_threshold": 0.8}}} ({@code
 * "max_depth": null} or {@code "backpressure": null} removes the bound), and {@code GET} of the same. Only the
 * {@code reject} strategy is offered: {@code block} would hold a producer's request and {@code drop_oldest} would
 * delete accepted jobs, which a server that never loses a job does not do.
 */
@Path("/ojs/v1/admin/queues/{name}/config")
class QueueConfigResource {

    private final Backpressure backpressure;
    private final ObjectMapper json;

    public QueueConfigResource(Backpressure backpressure, ObjectMapper json) {
        this.backpressure = backpressure;
        this.json = json;
    }

    @PUT
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> put(@PathParam("name") String name, String body) {
        String queue = Params.queue("name", name);
        return Uni.createFrom().item(() -> bound(Body.parse(json, body)))
                .flatMap(b -> backpressure.configure(queue, b.orElse(null)).replaceWith(b))
                .map(b -> Responses.ok(json, view(queue, b)));
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("name") String name) {
        String queue = Params.queue("name", name);
        return backpressure.bound(queue).map(b -> Responses.ok(json, view(queue, b)));
    }

    private static Optional<QueueBound> bound(Body b) {
        Body bp = b.object("backpressure");
        if (bp == null) {
            if (!b.node().has("backpressure")) {
                throw OjsException.invalidField("backpressure", "The body must hold 'backpressure' (null removes the"
                        + " bound).", "object or null", "missing");
            }
            return Optional.empty();
        }
        String strategy = bp.string("strategy", false);
        if (strategy != null && !strategy.equals("reject")) {
            throw OjsException.invalidField("backpressure.strategy", "Only the 'reject' strategy is supported.",
                    "reject", strategy);
        }
        Long max = bp.integer("max_depth");
        if (max == null) {
            return Optional.empty();
        }
        if (max < 1 || max > Integer.MAX_VALUE) {
            throw OjsException.invalidField("backpressure.max_depth", "'max_depth' must be a positive whole number.",
                    "1 to " + Integer.MAX_VALUE, max.toString());
        }
        JsonNode w = bp.raw("warning_threshold");
        double warning = QueueBound.DEFAULT_WARNING;
        if (w != null) {
            if (!w.isNumber() || w.doubleValue() <= 0 || w.doubleValue() > 1) {
                throw OjsException.invalidField("backpressure.warning_threshold",
                        "'warning_threshold' must be a number above 0 and at most 1.", "(0, 1]", w.toString());
            }
            warning = w.doubleValue();
        }
        return Optional.of(new QueueBound(max.intValue(), warning));
    }

    static AdminQueueViews.Config view(String queue, Optional<QueueBound> b) {
        return new AdminQueueViews.Config(queue, b.map(q -> new AdminQueueViews.Backpressure(q.maxDepth(), "reject",
                q.warningThreshold())).orElse(null));
    }
}
