package dev.steadfast.operations;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The JSON admin API's switches. */
@ConfigMapping(prefix = "steadfast.admin")
interface AdminConfig {

    /** Serve POST /ojs/v1/admin/reset, which empties every table. Off unless set (on in dev and test). */
    @WithDefault("false")
    boolean resetEnabled();
}
