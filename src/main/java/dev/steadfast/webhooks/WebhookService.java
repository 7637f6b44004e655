package dev.steadfast.webhooks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobIds;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.webhook.AddressRange;
import dev.steadfast.events.EventData;
import dev.steadfast.events.JobEvent;
import dev.steadfast.http.Body;
import dev.steadfast.http.Json;
import dev.steadfast.model.SubscriptionRow;
import dev.steadfast.store.webhooks.DeliveryRow;
import dev.steadfast.store.webhooks.NewSubscription;
import dev.steadfast.store.webhooks.SubscriptionChange;
import dev.steadfast.store.webhooks.WebhookStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The webhooks extension's operations (ojs-webhooks 6 and 10): subscriptions created, listed, read, changed,
 * deleted, tested and their secrets rotated; deliveries listed, read and retried. {@code tenant} is the caller's
 * X-OJS-Tenant (null: none): a subscription created with one belongs to that tenant and receives only events about
 * its jobs (9.3), and a caller naming a tenant sees and changes only that tenant's subscriptions and deliveries
 * (another's answer 404 as if they did not exist); a caller naming none sees every one.
 */
@ApplicationScoped
public class WebhookService {

    static final Set<String> DELIVERY_STATES = Set.of("pending", "delivered", "dead");
    static final Pattern SUBSCRIPTION_ID = Pattern.compile(
            "^sub_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    static final Pattern DELIVERY_ID = Pattern.compile(
            "^del_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");

    private final WebhookStore store;
    private final WebhookFanout fanout;
    private final WebhookSender sender;
    private final WebhookMetrics metrics;
    private final WebhookDispatcher dispatcher;
    private final WebhooksConfig config;
    private final List<AddressRange> allowed;
    private final ObjectMapper json;
    private final Clock clock;

    public WebhookService(WebhookStore store, WebhookFanout fanout, WebhookSender sender, WebhookMetrics metrics,
                          WebhookDispatcher dispatcher, WebhooksConfig config, ObjectMapper json, Clock clock) {
        this.store = store;
        this.fanout = fanout;
        this.sender = sender;
        this.metrics = metrics;
        this.dispatcher = dispatcher;
        this.config = config;
        this.allowed = ranges(config);
        this.json = json;
        this.clock = clock;
    }

    /** The configured private ranges deliveries may reach; a bad one stops the start with its name. */
    static List<AddressRange> ranges(WebhooksConfig config) {
        List<AddressRange> out = new ArrayList<>();
        for (String r : config.allowedPrivateRanges().orElse("").split(",")) {
            if (r.isBlank()) {
                continue;
            }
            try {
                out.add(AddressRange.parse(r));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("steadfast.webhooks.allowed-private-ranges: " + e.getMessage());
            }
        }
        return List.copyOf(out);
    }

    SubscriptionRequest parseCreate(Body b) {
        return SubscriptionRequest.create(b, config.allowHttp(), allowed);
    }

    SubscriptionChange parseChange(Body b) {
        return SubscriptionRequest.change(b, config.allowHttp(), allowed);
    }

    /** Creates a subscription; the answer carries its secret, the only time it is shown. */
    public Uni<WebhookAnswers.Subscription> create(String tenant, SubscriptionRequest r) {
        Instant now = now();
        String secret = r.secret() != null ? r.secret() : Secrets.generate();
        NewSubscription s = new NewSubscription("sub_" + JobIds.next(now.toEpochMilli()), tenant, r.url(), r.events(),
                r.queues() == null ? List.of() : r.queues(), r.jobTypes() == null ? List.of() : r.jobTypes(),
                r.active() == null || r.active(), secret, r.metadata(),
                r.timeoutMs() != null ? r.timeoutMs() : (int) config.defaultTimeout().toMillis());
        return store.insert(s, now).call(fanout::reload).map(row -> {
            metrics.subscriptionCreated(row.id(), row.url(), now);
            return WebhookAnswers.Subscription.of(row, secret);
        });
    }

    public Uni<List<SubscriptionRow>> list(String tenant, String after, int limit) {
        return store.list(tenant, cursor(after, SUBSCRIPTION_ID), limit);
    }

    public Uni<SubscriptionRow> get(String tenant, String id) {
        if (!SUBSCRIPTION_ID.matcher(id).matches()) {
            return Uni.createFrom().failure(notFound(id));
        }
        return store.find(id, tenant).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    public Uni<SubscriptionRow> update(String tenant, String id, SubscriptionChange c) {
        if (!SUBSCRIPTION_ID.matcher(id).matches()) {
            return Uni.createFrom().failure(notFound(id));
        }
        return store.update(id, tenant, c, now()).call(fanout::reload)
                .map(found -> found.orElseThrow(() -> notFound(id)));
    }

    /** A new secret, shown in the answer; the old one signs beside it for steadfast.webhooks.rotation-grace. */
    public Uni<WebhookAnswers.Subscription> rotate(String tenant, String id) {
        Instant now = now();
        String secret = Secrets.generate();
        if (!SUBSCRIPTION_ID.matcher(id).matches()) {
            return Uni.createFrom().failure(notFound(id));
        }
        return store.rotate(id, tenant, secret, now.plus(config.rotationGrace()), now)
                .map(found -> WebhookAnswers.Subscription.of(found.orElseThrow(() -> notFound(id)), secret));
    }

    public Uni<Void> delete(String tenant, String id) {
        Instant now = now();
        if (!SUBSCRIPTION_ID.matcher(id).matches()) {
            return Uni.createFrom().failure(notFound(id));
        }
        return store.delete(id, tenant).call(fanout::reload).map(deleted -> {
            if (!deleted) {
                throw notFound(id);
            }
            metrics.subscriptionDeleted(id, now);
            return null;
        });
    }

    /**
     * Sends a {@code webhook.test} event to the subscription now, signed as a delivery is, and answers what came
     * back (ojs-webhooks 6.6). Not stored and not retried: it checks the endpoint, whether or not the subscription
     * is active.
     */
    public Uni<WebhookAnswers.TestResult> test(String tenant, String id) {
        return get(tenant, id).chain(s -> {
            Instant now = now();
            String deliveryId = "del_" + JobIds.nextPlain(now.toEpochMilli());
            JobEvent ping = new JobEvent(JobEvent.newId(now), "webhook.test", now, s.id(),
                    null, null, new EventData.WebhookTest(s.id(), "A test delivery from Steadfast."));
            String body = Json.write(json, JobEvent.cloudEvent(ping));
            String previous = s.previousSecretUntil() != null && s.previousSecretUntil().isAfter(now)
                    ? s.previousSecret() : null;
            return sender.post(s.url(), WebhookDispatcher.headers(deliveryId, s.id(), "webhook.test", s.secret(),
                            previous, now, body), body, s.timeoutMs())
                    .map(sent -> new WebhookAnswers.TestResult(sent.failure() == null && sent.status() >= 200
                            && sent.status() < 300, sent.status() == 0 ? null : sent.status(), sent.durationMs(),
                            sent.body(), sent.error(), deliveryId));
        });
    }

    /** Per subscription, how many of its deliveries are in each state (the console's summary). */
    public Uni<Map<String, Map<String, Long>>> counts(List<String> subscriptions) {
        return store.countsByState(subscriptions);
    }

    public Uni<List<DeliveryRow>> deliveries(String tenant, String subscription, String state, String before,
                                             int limit) {
        if (state != null && !DELIVERY_STATES.contains(state)) {
            throw OjsException.invalidField("state", "'state' must be pending, delivered or dead.",
                    "pending, delivered or dead", state);
        }
        Uni<Void> exists = subscription == null ? Uni.createFrom().voidItem()
                : get(tenant, subscription).replaceWithVoid();
        String cursor = cursor(before, DELIVERY_ID);
        return exists.chain(() -> store.deliveries(subscription, state, tenant, cursor, limit));
    }

    public Uni<DeliveryRow> delivery(String tenant, String id) {
        if (!DELIVERY_ID.matcher(id).matches()) {
            return Uni.createFrom().failure(OjsException.notFound("delivery", id));
        }
        return store.delivery(id, tenant).map(found -> found.orElseThrow(() -> OjsException.notFound("delivery", id)));
    }

    /**
     * Retry now: a dead or delivered delivery starts a new series of attempts, a waiting one is due now; sent at
     * once by this instance. 409 while an attempt of it is under way.
     */
    public Uni<DeliveryRow> retry(String tenant, String id) {
        Instant now = now();
        if (!DELIVERY_ID.matcher(id).matches()) {
            return Uni.createFrom().failure(OjsException.notFound("delivery", id));
        }
        return store.retry(id, tenant, now).chain(done -> {
            if (done.isPresent()) {
                dispatcher.dispatchSoon();
                return Uni.createFrom().item(done.get());
            }
            return delivery(tenant, id).map(d -> {
                throw new OjsException(ErrorCode.CONFLICT, "Delivery " + id + " is being sent right now; retry"
                        + " it once this attempt has an outcome.", Map.of("delivery_id", id, "state", d.state()));
            });
        });
    }

    /** A page cursor: the last id of the previous page, of the given form; 400 otherwise. */
    private static String cursor(String value, Pattern form) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (!form.matcher(value).matches()) {
            throw OjsException.invalidField("cursor", "'cursor' must be the next_cursor of the previous page.",
                    "an id of the previous page", value.length() > 60 ? value.substring(0, 60) + "..." : value);
        }
        return value;
    }

    private static OjsException notFound(String id) {
        return OjsException.notFound("subscription", id);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    /** What a subscription's answer shows by default: no secret. */
    static WebhookAnswers.Subscription shown(SubscriptionRow r) {
        return WebhookAnswers.Subscription.of(r, null);
    }
}
