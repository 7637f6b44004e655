package dev.steadfast.operations;

import dev.steadfast.jobs.JobsConfig;
import dev.steadfast.http.AuthConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The conformance manifest (ojs-http-binding.md section 21): what this server implements. */
@ApplicationScoped
public class Manifest {

    private final Map<String, Object> body;

    public Manifest(@ConfigProperty(name = "quarkus.application.version", defaultValue = "0.1.0") String version,
                    JobsConfig jobsConfig, AuthConfig authConfig, dev.steadfast.schemas.SchemaConfig schemaConfig) {
        Map<String, Object> impl = new LinkedHashMap<>();
        impl.put("name", "steadfast");
        impl.put("version", version);
        impl.put("language", "java");
        Map<String, Object> caps = new LinkedHashMap<>();
        caps.put("batch_enqueue", true);
        caps.put("cron_jobs", true);
        caps.put("dead_letter", true);
        caps.put("delayed_jobs", true);
        caps.put("job_ttl", true);
        caps.put("priority_queues", true);
        Map<String, Object> rate = new LinkedHashMap<>();
        rate.put("scope", List.of("queue", "key"));
        rate.put("window", "sliding");
        rate.put("concurrency", true);
        rate.put("throttle", true);
        rate.put("per_job_keys", true);
        rate.put("on_limit", List.of("wait"));
        rate.put("enforcement", "claim time, in PostgreSQL: every instance sharing the database enforces the same"
                + " limits (one row lock per key, taken with SKIP LOCKED)");
        rate.put("inspect", "/ojs/v1/rate-limits/{key}");
        rate.put("events", List.of("rate_limit.exceeded", "rate_limit.released"));
        caps.put("rate_limiting", rate);
        // Args are checked on PUSH unless a type's mode (or the default) is off: the capability is there either way.
        caps.put("schema_validation", true);
        Map<String, Object> registry = new LinkedHashMap<>();
        registry.put("dialect", "https://json-schema.org/draft/2020-12/schema");
        registry.put("by", List.of("uri", "type_and_version"));
        registry.put("default_validation", schemaConfig.validation().wire());
        registry.put("validation_modes", List.of("strict", "warn", "off"));
        registry.put("per_type_validation", true);
        registry.put("breaking_change_detection", false);
        caps.put("schema_registry", registry);
        caps.put("unique_jobs", uniqueJobs());
        caps.put("bulk_enqueue", Map.of("atomic", true, "partial", true, "max_batch_size", jobsConfig.maxBatch()));
        caps.put("workflows", true);
        caps.put("pause_resume", true);
        Map<String, Object> endpoints = new LinkedHashMap<>();
        endpoints.put("base_url", "/ojs/v1");
        endpoints.put("manifest", "/ojs/manifest");
        endpoints.put("health", "/ojs/v1/health");
        endpoints.put("schemas", "/ojs/v1/schemas");
        endpoints.put("rate_limits", "/ojs/v1/rate-limits/{key}");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("specversion", "1.0");
        m.put("ojs_version", "1.0");
        m.put("implementation", impl);
        // Levels are cumulative (ojs-conformance.md 2): levels 0-4 pass.
        m.put("conformance_level", 4);
        m.put("schema_validation", true);
        m.put("unique_job_strength", "strong");
        m.put("protocols", List.of("http"));
        m.put("backend", "postgres");
        m.put("capabilities", caps);
        m.put("extensions", List.of("dead-letter", "snooze", "retry-policy-scopes", "event-stream", "admin-api",
                "long-poll", "batch-ack", "bearer-auth", "progress", "graceful-shutdown", "observability",
                "rate-limiting", "bulk-operations", "schema-registry"));
        m.put("endpoints", endpoints);
        m.put("authentication", authentication(authConfig.enabled()));
        this.body = java.util.Collections.unmodifiableMap(m);
    }

    /** How to authenticate (ojs-http-binding.md 5.2: documented in the manifest). */
    private static Map<String, Object> authentication(boolean required) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("required", required);
        a.put("schemes", List.of("bearer"));
        a.put("header", "Authorization: Bearer <token>");
        a.put("public", List.of("GET /ojs/manifest", "GET /ojs/v1/health"));
        Map<String, Object> roles = new LinkedHashMap<>();
        roles.put("producer", "PUSH, batch PUSH, INFO, CANCEL, ACTIVATE, workflows (create, get, cancel)");
        roles.put("worker", "POST /ojs/v1/workers/{fetch,ack,nack,heartbeat,snooze}");
        roles.put("readonly", "every GET");
        roles.put("admin", "everything");
        a.put("roles", roles);
        a.put("errors", Map.of("401", "unauthenticated", "403", "permission_denied"));
        return a;
    }

    public Map<String, Object> body() {
        return body;
    }

    /** The unique-policy shapes PUSH reads (AdvancedOptions, domain.unique.UniqueRequest) and how strong it is. */
    private static Map<String, Object> uniqueJobs() {
        Map<String, Object> u = new LinkedHashMap<>();
        u.put("strength", "strong");
        u.put("mechanism", "PostgreSQL transaction-scoped advisory lock per SHA-256 uniqueness key, then lookup and"
                + " insert in the same transaction");
        u.put("fields", List.of("keys", "args_keys", "meta_keys", "key", "period", "period_ms", "states",
                "on_conflict"));
        u.put("dimensions", List.of("type", "queue", "args", "meta"));
        u.put("key_forms", Map.of("array", "fields of the first argument object (ojs-json-format 3.5)",
                "string", "a key of the caller's own, with the type"));
        u.put("on_conflict", List.of("reject", "replace", "replace_except_schedule", "ignore", "use_existing"));
        u.put("default_dimensions", List.of("type"));
        return u;
    }
}
