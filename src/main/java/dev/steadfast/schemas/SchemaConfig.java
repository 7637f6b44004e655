package dev.steadfast.schemas;

import dev.steadfast.domain.schema.ValidationMode;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The schema registry's settings ({@code steadfast.schemas.}; environment {@code STEADFAST_SCHEMAS_...}).
 */
@ConfigMapping(prefix = "steadfast.schemas")
public interface SchemaConfig {

    /**
     * How PUSH treats args that do not match their type's registered schema, for types without a mode of their own
     * ({@code PUT /ojs/v1/admin/schemas/{type}/validation}): {@code strict} refuses the job (400
     * {@code schema_validation}), {@code warn} creates it and answers {@code warnings}, {@code off} does not check.
     * {@code warn} by default, as ojs-schema-registry.md 7.2 recommends: registering a schema does not break the
     * producers already running.
     */
    @WithDefault("warn")
    ValidationMode validation();
}
