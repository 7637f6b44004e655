package dev.steadfast.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Positive;

/** What every route shares: the request size limit. */
@ConfigMapping(prefix = "steadfast.http")
public interface HttpConfig {

    /** Largest request body accepted; larger bodies get 413 payload_too_large. */
    @WithDefault("1048576")
    @Positive
    long maxBodyBytes();
}
