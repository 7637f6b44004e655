package dev.steadfast.webhooks;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Optional;

/** Webhook subscriptions and deliveries (ojs-webhooks.md; docs/concepts/webhooks.md). */
@ConfigMapping(prefix = "steadfast.webhooks")
interface WebhooksConfig {

    /**
     * Let subscriptions name {@code http} URLs (ojs-webhooks 8.4: https only in production). For development and
     * tests only: deliveries over http are readable and changeable on the way.
     */
    @WithDefault("false")
    boolean allowHttp();

    /**
     * Private address ranges (CIDR, comma-separated, e.g. {@code 127.0.0.0/8,10.1.2.0/24}) that deliveries may
     * reach anyway. By default none: loopback, link-local, private, carrier-grade NAT, unspecified and multicast
     * addresses are refused, both when a subscription names one and when a host name resolves to one.
     */
    Optional<String> allowedPrivateRanges();

    /** Attempts per delivery before it is dead: the spec's schedule is 8 (at least 5). */
    @WithDefault("8")
    @Min(5)
    @Max(25)
    int maxAttempts();

    /**
     * The delays before attempts 2, 3, ... as ISO 8601 durations, comma-separated (the last repeats); by default the
     * spec's table (PT30S, PT2M, PT10M, PT1H, PT4H, PT12H, PT24H).
     */
    Optional<String> retryDelays();

    /** Spread each retry's delay over [0.5, 1.5) of the spec's delay, as job retries with jitter do. */
    @WithDefault("false")
    boolean jitter();

    /** How often each instance claims due deliveries and rereads the active subscriptions. */
    @WithDefault("1s")
    Duration dispatchInterval();

    /** Deliveries claimed at once by an instance; also the most it sends at the same time. */
    @WithDefault("64")
    @Positive
    @Max(1000)
    int batchSize();

    /** A subscription's request timeout when it names none (ojs-webhooks 7.3: 30 s; 1 to 60 s per subscription). */
    @WithDefault("30s")
    Duration defaultTimeout();

    /** How long the secret a rotation replaced still signs deliveries beside the new one (ojs-webhooks 8.3). */
    @WithDefault("24h")
    Duration rotationGrace();

    /** How long delivered and dead deliveries are kept for inspection and replay. */
    @WithDefault("7d")
    Duration retention();
}
