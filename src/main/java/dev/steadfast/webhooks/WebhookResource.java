package dev.steadfast.webhooks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.TenantId;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.RequestContext;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/**
 * The webhooks extension's HTTP binding (ojs-webhooks 10): subscriptions and deliveries under
 * {@code /ojs/v1/webhooks}. Reads need {@code readonly} or {@code admin}, every change {@code admin}; the
 * X-OJS-Tenant header scopes every route to that tenant's subscriptions ({@link WebhookService}).
 */
@Path("/ojs/v1/webhooks")
class WebhookResource {

    static final String SUBSCRIPTIONS = "/ojs/v1/webhooks/subscriptions/";

    private final WebhookService webhooks;
    private final ObjectMapper json;

    public WebhookResource(WebhookService webhooks, ObjectMapper json) {
        this.webhooks = webhooks;
        this.json = json;
    }

    @POST
    @Path("/subscriptions")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> create(String body) {
        return Uni.createFrom().item(() -> webhooks.parseCreate(Body.parse(json, body)))
                .chain(r -> webhooks.create(tenant(), r))
                .map(s -> Response.fromResponse(Responses.json(json, 201, new WebhookAnswers.One(s)))
                        .location(URI.create(SUBSCRIPTIONS + s.id())).build());
    }

    @GET
    @Path("/subscriptions")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        int n = Params.integer("limit", limit, 50, 1, 200);
        return Uni.createFrom().item(WebhookResource::tenant).chain(t -> webhooks.list(t, cursor, n))
                .map(rows -> Responses.ok(json, new WebhookAnswers.Many(
                        rows.stream().map(WebhookService::shown).toList(),
                        rows.size() == n ? rows.get(rows.size() - 1).id() : null)));
    }

    @GET
    @Path("/subscriptions/{id}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> get(@PathParam("id") String id) {
        return Uni.createFrom().item(WebhookResource::tenant).chain(t -> webhooks.get(t, id))
                .map(s -> Responses.ok(json, new WebhookAnswers.One(WebhookService.shown(s))));
    }

    @PATCH
    @Path("/subscriptions/{id}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> update(@PathParam("id") String id, String body) {
        return Uni.createFrom().item(() -> webhooks.parseChange(Body.parse(json, body)))
                .chain(c -> webhooks.update(tenant(), id, c))
                .map(s -> Responses.ok(json, new WebhookAnswers.One(WebhookService.shown(s))));
    }

    @DELETE
    @Path("/subscriptions/{id}")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> delete(@PathParam("id") String id) {
        return Uni.createFrom().item(WebhookResource::tenant).chain(t -> webhooks.delete(t, id))
                .map(v -> Responses.ok(json, new WebhookAnswers.Deleted(true, id)));
    }

    @POST
    @Path("/subscriptions/{id}/test")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> test(@PathParam("id") String id) {
        return Uni.createFrom().item(WebhookResource::tenant).chain(t -> webhooks.test(t, id))
                .map(r -> Responses.ok(json, r));
    }

    @POST
    @Path("/subscriptions/{id}/rotate-secret")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> rotate(@PathParam("id") String id) {
        return Uni.createFrom().item(WebhookResource::tenant).chain(t -> webhooks.rotate(t, id))
                .map(s -> Responses.ok(json, new WebhookAnswers.One(s)));
    }

    @GET
    @Path("/deliveries")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> deliveries(@QueryParam("subscription_id") String subscription,
                                    @QueryParam("state") String state, @QueryParam("limit") String limit,
                                    @QueryParam("cursor") String cursor) {
        int n = Params.integer("limit", limit, 50, 1, 200);
        return Uni.createFrom().item(WebhookResource::tenant)
                .chain(t -> webhooks.deliveries(t, subscription, state, cursor, n))
                .map(rows -> Responses.ok(json, new WebhookAnswers.Deliveries(
                        rows.stream().map(d -> WebhookAnswers.Delivery.of(d, false)).toList(),
                        rows.size() == n ? rows.get(rows.size() - 1).id() : null)));
    }

    @GET
    @Path("/deliveries/{id}")
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> delivery(@PathParam("id") String id) {
        return Uni.createFrom().item(WebhookResource::tenant).chain(t -> webhooks.delivery(t, id))
                .map(d -> Responses.ok(json, new WebhookAnswers.OneDelivery(WebhookAnswers.Delivery.of(d, true))));
    }

    @POST
    @Path("/deliveries/{id}/retry")
    @RolesAllowed(Roles.ADMIN)
    public Uni<Response> retry(@PathParam("id") String id) {
        return Uni.createFrom().item(WebhookResource::tenant).chain(t -> webhooks.retry(t, id))
                .map(d -> Responses.ok(json, new WebhookAnswers.OneDelivery(WebhookAnswers.Delivery.of(d, false))));
    }

    /** The request's X-OJS-Tenant, checked; null when it names none. */
    private static String tenant() {
        return TenantId.header(RequestContext.tenantHeader());
    }
}
