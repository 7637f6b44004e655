package dev.steadfast.audit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;

/** The audit log of changes made from the console and the admin API. */
@ConfigMapping(prefix = "steadfast.audit")
public interface AuditConfig {

    /** Audit entries are deleted this long after they were written (by the pruner, on every instance). */
    @WithDefault("P90D")
    @DurationMin(hours = 1)
    Duration retention();
}
