package dev.steadfast.http;

import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * For {@link AuthFailureHandlerTest}: a route between Quarkus's authentication filter (priority 200) and the REST
 * layer's filter that follows it (199) on one side and the resources on the other, which notes what authentication
 * failure handler the routing context still holds. It notes only requests that carry {@link #HEADER}, so every other
 * test's requests pass it untouched.
 */
@ApplicationScoped
public class AuthFailureHandlerProbe {

    static final String HEADER = "X-Test-Probe";
    /** The probe header's value -> the class of the handler the context held, or "none". */
    static final Map<String, String> SEEN = new ConcurrentHashMap<>();

    void install(@Observes Router router) {
        router.route().order(-150).handler(rc -> {
            String probe = rc.request().getHeader(HEADER);
            if (probe != null) {
                Object h = rc.get(QuarkusHttpUser.AUTH_FAILURE_HANDLER);
                SEEN.put(probe, h == null ? "none" : h.getClass().getName());
            }
            rc.next();
        });
    }
}
