package dev.steadfast.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import java.util.Map;

/** Bearer-token authentication of the OJS API (/ojs/...); the console has its own login. */
@ConfigMapping(prefix = "steadfast.auth")
public interface AuthConfig {

    /**
     * Require a token on every /ojs route except the manifest and health. On unless set to false (off in dev
     * and test). On without any token configured, the server refuses to start.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * The accepted tokens by name: {@code steadfast.auth.tokens."ci-worker"=worker:sha256:<hex>}, roles
     * {@code producer}, {@code worker}, {@code admin}, {@code readonly} (comma-separated); make one with
     * the server jar's command {@code java -jar quarkus-run.jar token --role worker}.
     */
    Map<String, String> tokens();

    /** The WARN lines about failed authentications (401 and 403 of the API). */
    @WithName("failure-log") // spelled out: SmallRye's validation messages otherwise say failureLog
    FailureLog failureLog();

    /**
     * A client can fail authentication as often as it likes, so its lines are budgeted: at most {@code lines}
     * per {@code window}; the next line logged after a full window says how many were left out.
     */
    interface FailureLog {
        /** Most WARN lines about failed authentications per window. */
        @WithDefault("10")
        @Positive
        int lines();

        /** The window the lines are counted in. */
        @WithDefault("1m")
        @DurationMin(millis = 1)
        Duration window();
    }
}
