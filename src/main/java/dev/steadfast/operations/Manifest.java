package dev.steadfast.operations;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.AuthConfig;
import dev.steadfast.jobs.JobsConfig;
import dev.steadfast.schemas.SchemaConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The conformance manifest (ojs-http-binding.md section 21): what this server implements. */
@ApplicationScoped
public class Manifest {

    private final Body body;

    public Manifest(@ConfigProperty(name = "quarkus.application.version", defaultValue = "0.1.0") String version,
                    JobsConfig jobsConfig, AuthConfig authConfig, SchemaConfig schemaConfig) {
        RateLimiting rate = new RateLimiting(List.of("queue", "key"), "sliding", true, true, true, List.of("wait"),
                "claim time, in PostgreSQL: every instance sharing the database enforces the same"
                        + " limits (one row lock per key, taken with SKIP LOCKED)",
                "/ojs/v1/rate-limits/{key}", List.of("rate_limit.exceeded", "rate_limit.released"));
        SchemaRegistry registry = new SchemaRegistry("https://json-schema.org/draft/2020-12/schema",
                List.of("uri", "type_and_version"), schemaConfig.validation().wire(), List.of("strict", "warn", "off"),
                true, false);
        // Args are checked on PUSH unless a type's mode (or the default) is off: the capability is there either way.
        Capabilities caps = new Capabilities(true, true, true, true, true, true, rate, true, registry, UNIQUE_JOBS,
                new BulkEnqueue(true, true, jobsConfig.maxBatch()), true, true);
        Endpoints endpoints = new Endpoints("/ojs/v1", "/ojs/manifest", "/ojs/v1/health", "/ojs/v1/schemas",
                "/ojs/v1/rate-limits/{key}");
        // Levels are cumulative (ojs-conformance.md 2): levels 0-4 pass.
        this.body = new Body("1.0", "1.0", new Implementation("steadfast", version, "java"), 4, true, "strong",
                List.of("http", "grpc"), "postgres", caps, List.of("dead-letter", "snooze", "retry-policy-scopes",
                "event-stream", "admin-api", "long-poll", "batch-ack", "bearer-auth", "progress", "graceful-shutdown",
                "observability", "rate-limiting", "bulk-operations", "schema-registry", "durable-execution", "webhooks"),
                endpoints,
                authentication(authConfig.enabled()));
    }

    /** How to authenticate (ojs-http-binding.md 5.2: documented in the manifest). */
    private static Authentication authentication(boolean required) {
        return new Authentication(required, List.of("bearer"), "Authorization: Bearer <token>",
                List.of("GET /ojs/manifest", "GET /ojs/v1/health"),
                new RoleGrants("PUSH, batch PUSH, INFO, CANCEL, ACTIVATE, workflows (create, get, cancel)",
                        "POST /ojs/v1/workers/{fetch,ack,nack,heartbeat,snooze}", "every GET", "everything"),
                new AuthErrors("unauthenticated", "permission_denied"));
    }

    public Body body() {
        return body;
    }

    /** The unique-policy shapes PUSH reads (AdvancedOptions, domain.unique.UniqueRequest) and how strong it is. */
    private static final UniqueJobs UNIQUE_JOBS = new UniqueJobs("strong",
            "PostgreSQL transaction-scoped advisory lock per SHA-256 uniqueness key, then lookup and"
                    + " insert in the same transaction",
            List.of("keys", "args_keys", "meta_keys", "key", "period", "period_ms", "states", "on_conflict"),
            List.of("type", "queue", "args", "meta"),
            new KeyForms("fields of the first argument object (ojs-json-format 3.5)",
                    "a key of the caller's own, with the type"),
            List.of("reject", "replace", "replace_except_schedule", "ignore", "use_existing"), List.of("type"));

    /** The manifest document. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Body(String specversion, String ojsVersion, Implementation implementation, int conformanceLevel,
                       boolean schemaValidation, String uniqueJobStrength, List<String> protocols, String backend,
                       Capabilities capabilities, List<String> extensions, Endpoints endpoints,
                       Authentication authentication) {
    }

    public record Implementation(String name, String version, String language) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Capabilities(boolean batchEnqueue, boolean cronJobs, boolean deadLetter, boolean delayedJobs,
                               boolean jobTtl, boolean priorityQueues, RateLimiting rateLimiting,
                               boolean schemaValidation, SchemaRegistry schemaRegistry, UniqueJobs uniqueJobs,
                               BulkEnqueue bulkEnqueue, boolean workflows, boolean pauseResume) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record RateLimiting(List<String> scope, String window, boolean concurrency, boolean throttle,
                               boolean perJobKeys, List<String> onLimit, String enforcement, String inspect,
                               List<String> events) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SchemaRegistry(String dialect, List<String> by, String defaultValidation,
                                 List<String> validationModes, boolean perTypeValidation,
                                 boolean breakingChangeDetection) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record UniqueJobs(String strength, String mechanism, List<String> fields, List<String> dimensions,
                             KeyForms keyForms, List<String> onConflict, List<String> defaultDimensions) {
    }

    public record KeyForms(String array, String string) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record BulkEnqueue(boolean atomic, boolean partial, int maxBatchSize) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Endpoints(String baseUrl, String manifest, String health, String schemas, String rateLimits) {
    }

    public record Authentication(boolean required, List<String> schemes, String header,
                                 @JsonProperty("public") List<String> publicRoutes, RoleGrants roles,
                                 AuthErrors errors) {
    }

    /** What each role may do. */
    public record RoleGrants(String producer, String worker, String readonly, String admin) {
    }

    public record AuthErrors(@JsonProperty("401") String unauthenticated, @JsonProperty("403") String forbidden) {
    }
}
