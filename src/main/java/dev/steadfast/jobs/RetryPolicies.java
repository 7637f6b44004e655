package dev.steadfast.jobs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.retry.MaxAttemptsRule;
import dev.steadfast.domain.retry.PartialRetryPolicy;
import dev.steadfast.domain.retry.PolicyViolation;
import dev.steadfast.domain.retry.RetryPolicy;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Resolves a job's effective retry policy at enqueue time from four scopes, most specific first: the job's own
 * (partial) policy, its type's, its queue's, and the server default; each is merged over the next
 * (RET-10), starting from the OJS defaults. The merged max_attempts is then judged by the configured
 * {@link MaxAttemptsRule} (clamp, reset to the server default, or reject when out of range). The configured
 * scopes are validated when the server starts, so a bad configuration fails fast. A job policy that breaks a
 * rule of ojs-retry.md section 11 is refused with 422 naming the field, and nothing is enqueued (RET-16).
 */
@ApplicationScoped
@Startup
public class RetryPolicies {

    private final RetryPolicy serverDefault;
    /** The configured scopes as written (for {@link #describe}) and as read once (for {@link #resolve}). */
    private final Map<String, Map<String, Object>> byQueue = new TreeMap<>();
    private final Map<String, Map<String, Object>> byType = new TreeMap<>();
    private final Map<String, PartialRetryPolicy> queueScopes = new HashMap<>();
    private final Map<String, PartialRetryPolicy> typeScopes = new HashMap<>();
    private final MaxAttemptsRule maxAttempts;

    public RetryPolicies(RetryConfig r, ObjectMapper json) {
        this.serverDefault = r.defaults().map(d -> RetryPolicy.merge(RetryPolicy.DEFAULT, parse(json, "defaults", d)))
                .orElse(RetryPolicy.DEFAULT);
        r.queues().forEach((q, p) -> byQueue.put(q, parse(json, "queues." + q, p)));
        r.types().forEach((t, p) -> byType.put(t, parse(json, "types." + t, p)));
        byQueue.forEach((q, p) -> queueScopes.put(q, check(p)));
        byType.forEach((t, p) -> typeScopes.put(t, check(p)));
        this.maxAttempts = new MaxAttemptsRule(r.maxAttemptsMin(), r.maxAttemptsMax().orElse(Integer.MAX_VALUE),
                r.maxAttemptsOutOfRange());
        if (!maxAttempts.allows(serverDefault.maxAttempts())) {
            throw new IllegalArgumentException("steadfast.retry.defaults has max_attempts " + serverDefault.maxAttempts()
                    + ", outside steadfast.retry.max-attempts-min/-max [" + maxAttempts.min() + ", " + maxAttempts.max() + "]");
        }
    }

    /** The effective policy for a job of {@code type} in {@code queue} that asked for {@code partial}. */
    public RetryPolicy resolve(String type, String queue, Map<String, Object> partial) {
        RetryPolicy p = serverDefault;
        try {
            p = queueScopes.getOrDefault(queue, PartialRetryPolicy.NONE).over(p);
            p = typeScopes.getOrDefault(type, PartialRetryPolicy.NONE).over(p);
            p = RetryPolicy.merge(p, partial);
            return maxAttempts.apply(p, serverDefault.maxAttempts());
        } catch (PolicyViolation v) {
            throw new OjsException(ErrorCode.VALIDATION_ERROR, v.getMessage(), Map.of("field", v.field()));
        }
    }

    /**
     * The configured scopes, for GET /ojs/v1/retry-policies and the manifest: the default and the configured
     * per-queue and per-type policies as written (user configuration, so they stay JSON objects).
     */
    public Description describe() {
        return new Description(List.of("job", "type", "queue", "default"), serverDefault.toWire(), byQueue, byType,
                new AttemptsRange(maxAttempts.min(), maxAttempts.max() == Integer.MAX_VALUE ? null : maxAttempts.max(),
                        maxAttempts.mode().name().toLowerCase(Locale.ROOT)));
    }

    /** {@code {"precedence", "default", "queues", "types", "max_attempts_range"}}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"precedence", "default", "queues", "types", "max_attempts_range"})
    public record Description(List<String> precedence, @JsonProperty("default") Map<String, Object> serverDefault,
                              Map<String, Map<String, Object>> queues, Map<String, Map<String, Object>> types,
                              AttemptsRange maxAttemptsRange) {
    }

    /** The clamp on max_attempts: {@code max} null when unbounded. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record AttemptsRange(int min, Integer max, String outOfRange) {
    }

    /** {@code partial} read once; throws on an invalid configured policy. */
    private static PartialRetryPolicy check(Map<String, Object> partial) {
        PartialRetryPolicy p = PartialRetryPolicy.parse(partial);
        p.over(RetryPolicy.DEFAULT);
        return p;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parse(ObjectMapper json, String where, String text) {
        try {
            return json.readValue(text, Map.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("steadfast.retry." + where + " is not a JSON object: " + text, e);
        }
    }
}
