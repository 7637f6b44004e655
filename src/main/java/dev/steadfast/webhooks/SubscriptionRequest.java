package dev.steadfast.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.webhook.AddressRange;
import dev.steadfast.domain.webhook.EventFilter;
import dev.steadfast.domain.webhook.WebhookTarget;
import dev.steadfast.http.Body;
import dev.steadfast.store.webhooks.SubscriptionChange;
import java.util.List;
import java.util.Set;

/**
 * A create or PATCH body of a subscription (ojs-webhooks 6.1 and 6.4): {@code url}, {@code events},
 * {@code filter: {queues, job_types}}, {@code active}, {@code metadata}, {@code timeout_ms} and, on create only,
 * {@code secret}. Every field is checked before anything is stored; an unknown field is refused (a misspelt
 * {@code fliter} would otherwise deliver everything).
 */
record SubscriptionRequest(String url, List<String> events, List<String> queues, List<String> jobTypes,
                           Boolean active, String metadata, Integer timeoutMs, String secret) {

    static final Set<String> FIELDS = Set.of("url", "events", "filter", "active", "metadata", "timeout_ms", "secret");
    static final int MIN_TIMEOUT_MS = 1000;
    static final int MAX_TIMEOUT_MS = 60_000;
    static final int MAX_METADATA_BYTES = 16_384;

    /** A create: url and events required. */
    static SubscriptionRequest create(Body b, boolean allowHttp, List<AddressRange> allowed) {
        SubscriptionRequest r = read(b, allowHttp, allowed, true);
        if (r.url == null) {
            throw OjsException.invalidField("url", "A subscription needs 'url': where deliveries are posted.",
                    "an https URL", "missing");
        }
        if (r.events == null) {
            throw OjsException.invalidField("events", "A subscription needs 'events': the event types it receives"
                    + " (e.g. [\"job.completed\"], [\"job.*\"] or [\"*\"]).", "an array of event types", "missing");
        }
        return r;
    }

    /** A PATCH: any field but secret (rotate-secret changes it). */
    static SubscriptionChange change(Body b, boolean allowHttp, List<AddressRange> allowed) {
        if (b.has("secret")) {
            throw OjsException.invalidField("secret", "A subscription's secret is changed with POST"
                    + " /ojs/v1/webhooks/subscriptions/{id}/rotate-secret, not by PATCH.", "absent", "secret");
        }
        SubscriptionRequest r = read(b, allowHttp, allowed, false);
        return new SubscriptionChange(r.url, r.events, r.queues, r.jobTypes, r.active, r.metadata, r.timeoutMs);
    }

    private static SubscriptionRequest read(Body b, boolean allowHttp, List<AddressRange> allowed, boolean create) {
        b.node().fieldNames().forEachRemaining(f -> {
            if (!FIELDS.contains(f)) {
                throw OjsException.invalidField(f, "Unknown field '" + f + "'; a subscription has " + String.join(
                        ", ", FIELDS.stream().sorted().toList()) + ".", "a known field", f);
            }
        });
        String url = b.string("url", false);
        if (url != null) {
            url = WebhookTarget.check("url", url, allowHttp, allowed).toString();
        }
        List<String> events = b.strings("events", false);
        if (events != null) {
            events = EventFilter.checkEvents("events", events);
        }
        List<String> queues = null;
        List<String> jobTypes = null;
        JsonNode rawFilter = b.node().get("filter");
        if (rawFilter != null && rawFilter.isNull()) {
            queues = List.of();
            jobTypes = List.of();
        } else {
            Body filter = b.object("filter");
            if (filter != null) {
                filter.node().fieldNames().forEachRemaining(f -> {
                    if (!f.equals("queues") && !f.equals("job_types")) {
                        throw OjsException.invalidField("filter." + f, "Unknown field 'filter." + f + "'; a filter"
                                + " has queues and job_types.", "queues or job_types", f);
                    }
                });
                List<String> q = filter.strings("queues", false);
                List<String> t = filter.strings("job_types", false);
                queues = EventFilter.checkValues("filter.queues", q == null ? List.of() : q);
                jobTypes = EventFilter.checkValues("filter.job_types", t == null ? List.of() : t);
            }
        }
        Boolean active = b.bool("active");
        String metadata = null;
        Body m = b.object("metadata");
        if (m != null) {
            metadata = m.node().toString();
            if (metadata.length() > MAX_METADATA_BYTES) {
                throw OjsException.invalidField("metadata", "'metadata' may be at most " + MAX_METADATA_BYTES
                        + " bytes of JSON.", "at most " + MAX_METADATA_BYTES + " bytes", metadata.length() + " bytes");
            }
        }
        Long timeout = b.integer("timeout_ms");
        if (timeout != null && (timeout < MIN_TIMEOUT_MS || timeout > MAX_TIMEOUT_MS)) {
            throw OjsException.invalidField("timeout_ms", "'timeout_ms' must be from " + MIN_TIMEOUT_MS + " to "
                    + MAX_TIMEOUT_MS + " (ojs-webhooks 7.3).", MIN_TIMEOUT_MS + " to " + MAX_TIMEOUT_MS,
                    timeout.toString());
        }
        String secret = create ? b.string("secret", false) : null;
        if (secret != null) {
            Secrets.check("secret", secret);
        }
        return new SubscriptionRequest(url, events, queues, jobTypes, active, metadata,
                timeout == null ? null : timeout.intValue(), secret);
    }
}
