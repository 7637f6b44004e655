package dev.steadfast.webhooks;

import dev.steadfast.coalescing.Coalescer;
import dev.steadfast.coalescing.Coalescers;
import dev.steadfast.domain.retry.Iso8601Duration;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.domain.webhook.DeliveryDecision;
import dev.steadfast.domain.webhook.DeliveryDecision.Kind;
import dev.steadfast.domain.webhook.DeliveryDecision.Outcome;
import dev.steadfast.domain.webhook.DeliveryDecision.Result;
import dev.steadfast.store.webhooks.AttemptRecord;
import dev.steadfast.store.webhooks.ClaimedDelivery;
import dev.steadfast.store.webhooks.WebhookStore;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Sends due deliveries, on every instance at once. Each tick (steadfast.webhooks.dispatch-interval), and as soon as
 * this instance wrote new deliveries, it rereads the active subscriptions and claims due deliveries
 * ({@code FOR UPDATE SKIP LOCKED}: two instances never claim the same one), leasing each to this instance for its
 * subscription's timeout plus {@link #LEASE_MARGIN_MS}; then sends them without waiting for the answers, at most
 * steadfast.webhooks.batch-size in flight per instance (after a claim that filled its room, it claims again as soon as
 * half of them have finished, so a backlog drains at the receiver's pace, not one batch per tick). Each answer is decided by the pure
 * {@link DeliveryDecision} and written under the lease, so a late answer from a lease that ran out changes nothing.
 * An instance that dies mid-send leaves its deliveries leased; they come due again when the lease ends and another
 * instance (or this one, restarted) sends them again under the same delivery id: at least once, never lost.
 *
 * <p>Nothing is claimed while no subscription is active (a paused subscription's deliveries wait for it).
 */
@ApplicationScoped
class WebhookDispatcher {

    static final int LEASE_MARGIN_MS = 30_000;
    private static final Logger LOG = Logger.getLogger(WebhookDispatcher.class);

    private final String owner = "i-" + UUID.randomUUID().toString().substring(0, 13);
    private final AtomicInteger inFlight = new AtomicInteger();
    /** The last claim filled the room it had: more may be due than it took, so a freed half claims again. */
    private volatile boolean more;
    /** 0 idle, 1 running, 2 running and asked again meanwhile. */
    private final AtomicInteger running = new AtomicInteger();
    private final WebhookStore store;
    private final WebhookFanout fanout;
    private final WebhookSender sender;
    private final WebhookMetrics metrics;
    private final WebhooksConfig config;
    private final Clock clock;
    private final RetryPolicy schedule;
    /** Attempts that end together are written in one statement (RECORD_ATTEMPT over arrays). */
    private final Coalescer<AttemptRecord, Boolean> records;

    public WebhookDispatcher(WebhookStore store, WebhookFanout fanout, WebhookSender sender, WebhookMetrics metrics,
                             WebhooksConfig config, Clock clock, Coalescers coalescers) {
        this.store = store;
        this.fanout = fanout;
        this.sender = sender;
        this.metrics = metrics;
        this.config = config;
        this.clock = clock;
        this.schedule = schedule(config);
        this.records = coalescers.create("webhook-attempts", store::recordAll);
        fanout.onWritten(this::dispatchSoon);
    }

    @Scheduled(identity = "webhook-dispatcher", every = "${steadfast.webhooks.dispatch-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return fanout.reload().chain(() -> runOnce(now())).replaceWithVoid()
                .onFailure().recoverWithItem(e -> {
                    LOG.debugf("webhook dispatch failed: %s", e.getMessage());
                    return null;
                });
    }

    /** Claims and starts sending what is due at {@code now}; how many deliveries it started. */
    public Uni<Integer> runOnce(Instant now) {
        int room = config.batchSize() - inFlight.get();
        if (!fanout.anyActive() || room <= 0) {
            return Uni.createFrom().item(0);
        }
        return store.claim(now, room, LEASE_MARGIN_MS, owner).map(claimed -> {
            more = claimed.size() == room;
            for (ClaimedDelivery d : claimed) {
                inFlight.incrementAndGet();
                send(d).subscribe().with(v -> sent(), e -> {
                    sent();
                    LOG.warnf("webhook delivery %s: its outcome could not be written (%s); it is sent again when"
                            + " its lease ends", d.id(), e.getMessage());
                });
            }
            return claimed.size();
        });
    }

    /** A send finished: once half the room is free after a full claim, claim again rather than wait for the tick. */
    private void sent() {
        if (inFlight.decrementAndGet() <= config.batchSize() / 2 && more) {
            more = false;
            dispatchSoon();
        }
    }

    /** Runs once more soon, without waiting for the tick: one run at a time, a request during a run adds one. */
    void dispatchSoon() {
        if (running.getAndUpdate(s -> Math.min(2, s + 1)) > 0) {
            return;
        }
        runOnce(now()).subscribe().with(n -> afterRun(), e -> afterRun());
    }

    private void afterRun() {
        if (running.getAndUpdate(s -> s - 1) == 2) {
            running.set(0);
            dispatchSoon();
        }
    }

    private Uni<Void> send(ClaimedDelivery d) {
        Instant sentAt = now();
        String previous = d.previousSecretUntil() != null && d.previousSecretUntil().isAfter(sentAt)
                ? d.previousSecret() : null;
        return sender.post(d.url(), headers(d.id(), d.subscriptionId(), d.eventType(), d.secret(), previous, sentAt,
                        d.body()), d.body(), d.timeoutMs())
                .chain(sent -> {
                    Instant at = now();
                    Result r = sent.failure() != null ? Result.failed(sent.failure()) : Result.answered(sent.status(), sent.retryAfter());
                    Outcome o = DeliveryDecision.decide(d.attempt(), r, at, schedule, ThreadLocalRandom.current());
                    String state = switch (o.kind()) {
                        case DELIVERED -> "delivered";
                        case DEAD -> "dead";
                        case RETRY -> "pending";
                    };
                    String error = sent.error() != null ? sent.error()
                            : o.kind() == Kind.DELIVERED ? null : "HTTP " + sent.status();
                    AttemptRecord rec = new AttemptRecord(d.id(), owner, d.attempt(), state, o.nextAttemptAt(),
                            sent.status() == 0 ? null : sent.status(), error, (int) Math.min(Integer.MAX_VALUE,
                            sent.durationMs()), at);
                    return records.submit(rec).chain(mine -> {
                        if (!mine) {
                            return Uni.createFrom().voidItem();
                        }
                        metrics.attempt(d, o, sent, error, at);
                        return o.subscriptionGone() ? store.deactivate(d.subscriptionId(), at)
                                .chain(fanout::reload) : Uni.createFrom().voidItem();
                    });
                });
    }

    /** The configured schedule (steadfast.webhooks.retry-delays), or the spec's; a bad one stops the start. */
    static RetryPolicy schedule(WebhooksConfig config) {
        if (config.retryDelays().isEmpty()) {
            return DeliveryDecision.schedule(config.maxAttempts(), config.jitter());
        }
        List<Duration> delays = new ArrayList<>();
        for (String d : config.retryDelays().get().split(",")) {
            if (!d.isBlank()) {
                delays.add(Iso8601Duration.parse("steadfast.webhooks.retry-delays",
                        d.trim()));
            }
        }
        if (delays.isEmpty()) {
            throw new IllegalArgumentException("steadfast.webhooks.retry-delays names no delay");
        }
        return DeliveryDecision.schedule(config.maxAttempts(), config.jitter(), delays);
    }

    /** The headers of a delivery (ojs-webhooks 5.3), signed at {@code at} (8.1; both secrets during a rotation). */
    static Map<String, String> headers(String deliveryId, String subscriptionId, String eventType, String secret,
                                       String previousSecret, Instant at, String body) {
        long ts = at.getEpochSecond();
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json");
        h.put("X-OJS-Event-Type", eventType);
        h.put("X-OJS-Delivery-ID", deliveryId);
        h.put("X-OJS-Subscription-ID", subscriptionId);
        h.put("X-OJS-Timestamp", Long.toString(ts));
        h.put("X-OJS-Signature", Signatures.header(secret, previousSecret, ts, body));
        return h;
    }

    /** How many sends this instance has in flight (for tests and the console). */
    int inFlight() {
        return inFlight.get();
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
