package dev.steadfast.events;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The one {@code steadfast.fetch} setting that {@link WorkSignal} reads; the others are in work.FetchConfig (two
 * mappings share the prefix because work depends on events, not the other way round).
 */
@ConfigMapping(prefix = "steadfast.fetch")
interface FetchListenConfig {

    /** Listen for other instances' new jobs with PostgreSQL LISTEN/NOTIFY (off: only this instance's pushes and the poll wake waiters). */
    @WithDefault("true")
    boolean listen();
}
