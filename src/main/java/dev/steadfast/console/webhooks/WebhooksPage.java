package dev.steadfast.console.webhooks;

import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Flash;
import dev.steadfast.console.Pages;
import dev.steadfast.model.SubscriptionRow;
import dev.steadfast.webhooks.WebhookService;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * {@code /admin/webhooks}: the webhook subscriptions with their deliveries counted by state;
 * {@code /admin/webhooks/{id}}: one subscription's latest deliveries (last attempt, status, what comes next) with
 * retry now (an operator action, not destructive: it sends the event again under the same delivery id). All through
 * {@link WebhookService}, the webhooks API's implementation.
 */
@Path("/admin/webhooks")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class WebhooksPage {

    static final int SUBSCRIPTIONS = 200;
    static final int DELIVERIES = 50;

    private final WebhookService webhooks;
    private final ConsoleRequest request;
    private final Clock clock;

    public WebhooksPage(WebhookService webhooks, ConsoleRequest request, Clock clock) {
        this.webhooks = webhooks;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Uni<TemplateInstance> list() {
        return webhooks.list(null, null, SUBSCRIPTIONS).chain(subs -> webhooks.counts(ids(subs))
                .map(counts -> Pages.webhooks(request.chrome("webhooks"), new WebhooksView(subs.stream()
                        .map(s -> WebhooksView.Subscription.of(s, counts.get(s.id()))).toList()))));
    }

    @GET
    @Path("/{id}")
    public Uni<TemplateInstance> subscription(@PathParam("id") String id) {
        Instant now = clock.instant();
        return webhooks.get(null, id).chain(s -> webhooks.counts(List.of(s.id()))
                .chain(counts -> webhooks.deliveries(null, s.id(), null, null, DELIVERIES)
                        .map(ds -> Pages.webhook(request.chrome("webhooks"), new WebhooksView.Detail(
                                WebhooksView.Subscription.of(s, counts.get(s.id())),
                                ds.stream().map(d -> WebhooksView.Delivery.of(d, now)).toList())))));
    }

    @POST
    @Path("/{id}/deliveries/{delivery}/retry")
    public Uni<Response> retry(@PathParam("id") String id, @PathParam("delivery") String delivery) {
        return webhooks.retry(null, delivery).map(d -> Flash.redirect("/admin/webhooks/" + id,
                "Delivery " + d.id() + " is sent again now, under the same delivery id."));
    }

    private static List<String> ids(List<SubscriptionRow> subs) {
        return subs.stream().map(SubscriptionRow::id).toList();
    }
}
