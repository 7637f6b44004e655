package dev.steadfast.http;

import dev.steadfast.config.SteadfastConfig;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.http.ApiAccess.Role;
import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.quarkus.cache.CaffeineCache;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.ws.rs.Path;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Bearer-token authentication of every /ojs route (ojs-http-binding.md 5, ojs-security.md 6 and 7), as a Vert.x
 * route that runs right after {@link HttpFrame} gave the request its id and before any resource: a missing,
 * malformed or unknown token is {@code 401 unauthenticated} with {@code WWW-Authenticate: Bearer}, a known token
 * without a role {@link ApiAccess} allows is {@code 403 permission_denied}, both as OJS envelopes. The manifest and
 * health stay public. With {@code steadfast.auth.enabled=false} everything passes; with it on and no token
 * configured the server does not start (an operator gets a clear message at once, not a fleet of 401s later).
 *
 * <p>A token that matched is remembered in the {@value #TOKEN_CACHE} cache (quarkus-cache, bounded and expiring
 * after access, see application.properties), so its SHA-256 is computed once, not on every request. Only matches
 * are remembered: an unknown token is hashed and compared again on each request, so it can neither fill the cache
 * nor ever be taken for a known one. The configured tokens change only with a restart, which empties the cache.
 *
 * <p>Every refusal is logged at WARN (ojs-security.md 11.1) with the status, the reason, the method, the route
 * template ({@link RouteTemplates}, from the resources' {@code @Path}s) and the client's address, never the token
 * or the header; at most {@code steadfast.auth.failure-log.lines} lines per {@code window} ({@link LogBudget}), so a
 * flood of bad requests cannot flood the log: the next line logged says how many were left out.
 */
@ApplicationScoped
public class ApiAuth {

    private static final Logger LOG = Logger.getLogger(ApiAuth.class);
    static final String REALM = "Bearer realm=\"steadfast\"";
    static final String TOKEN_CACHE = "steadfast-api-tokens";

    private final boolean enabled;
    private final ApiTokens tokens;
    private final CaffeineCache known;
    private final Clock clock;
    private final BeanManager beans;
    private final LogBudget failures;
    private volatile RouteTemplates routes = new RouteTemplates(List.of());

    /** Without a clock or beans: for tests of the configuration, which never check a request. */
    ApiAuth(SteadfastConfig config, Cache known) {
        this(config, known, Clock.systemUTC(), null);
    }

    @Inject
    public ApiAuth(SteadfastConfig config, @CacheName(TOKEN_CACHE) Cache known, Clock clock, BeanManager beans) {
        this.known = known == null ? null : known.as(CaffeineCache.class); // null: tests that never check a token
        this.clock = clock;
        this.beans = beans;
        this.failures = new LogBudget(config.auth().failureLog().lines(),
                Math.max(1, config.auth().failureLog().window().toMillis()));
        this.enabled = config.auth().enabled();
        this.tokens = ApiTokens.parse(config.auth().tokens());
        if (enabled && tokens.isEmpty()) {
            throw new IllegalStateException("API authentication is on (steadfast.auth.enabled defaults to true) but"
                    + " no token is configured. Make one with 'java -jar quarkus-run.jar token --role admin' and set the"
                    + " line it prints (steadfast.auth.tokens.\"<name>\"=<roles>:sha256:<hex>), or switch"
                    + " authentication off explicitly with steadfast.auth.enabled=false.");
        }
    }

    public boolean enabled() {
        return enabled;
    }

    void install(@Observes Router router) {
        if (enabled) {
            LOG.infof("API authentication on: %d token(s) configured", tokens.size());
            routes = new RouteTemplates(resourceTemplates(beans));
            router.route().order(-999).handler(this::check);
        } else {
            LOG.warn("API authentication is OFF (steadfast.auth.enabled=false): anyone who reaches the port can use"
                    + " the OJS API");
        }
    }

    private void check(RoutingContext rc) {
        String path = rc.normalizedPath();
        String method = rc.request().method().name();
        if (!path.startsWith("/ojs/") || ApiAccess.isPublic(method, path)) {
            rc.next();
            return;
        }
        String header = rc.request().getHeader("Authorization");
        if (header == null || header.isBlank()) {
            logFailure(rc, ErrorCode.UNAUTHENTICATED, "no Authorization header");
            refuse(rc, ErrorCode.UNAUTHENTICATED, REALM, "This endpoint requires a token: send Authorization: "
                    + "Bearer <token>.", Map.of("scheme", "Bearer"));
            return;
        }
        String token = bearer(header);
        ApiTokens.Entry who = token == null ? null : identify(token);
        if (who == null) {
            logFailure(rc, ErrorCode.UNAUTHENTICATED, token == null ? "Authorization is not 'Bearer <token>'"
                    : "unknown token");
            refuse(rc, ErrorCode.UNAUTHENTICATED, REALM + ", error=\"invalid_token\"", token == null
                    ? "The Authorization header must be 'Bearer <token>'." : "The token is not valid.",
                    Map.of("scheme", "Bearer"));
            return;
        }
        Set<Role> allowed = ApiAccess.allowed(method, path);
        if (!mayCall(who.roles(), allowed)) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("token", who.name());
            d.put("roles", who.roles().stream().map(Role::wire).sorted().toList());
            d.put("required_roles", allowed.stream().map(Role::wire).sorted().toList());
            logFailure(rc, ErrorCode.PERMISSION_DENIED, "token '" + who.name() + "' " + d.get("roles")
                    + " lacks a role of " + d.get("required_roles"));
            refuse(rc, ErrorCode.PERMISSION_DENIED, REALM + ", error=\"insufficient_scope\"",
                    "Token '" + who.name() + "' (" + who.roles().stream().map(Role::wire).sorted()
                            .collect(Collectors.joining(", ")) + ") may not " + method + " " + path + ".", d);
            return;
        }
        rc.put("steadfast.token", who.name());
        rc.next();
    }

    private void logFailure(RoutingContext rc, ErrorCode code, String reason) {
        long skipped = failures.admit(clock.millis());
        if (skipped == LogBudget.SKIP) {
            return;
        }
        SocketAddress remote = rc.request().remoteAddress();
        String more = skipped == 0 ? "" : "; " + skipped + " earlier failed authentication(s) were not logged (at most "
                + failures.lines() + " lines per " + Duration.ofMillis(failures.windowMillis()) + ")";
        LOG.warnf("failed authentication: %d %s (%s) on %s %s from %s%s", code.status(), code.wire(), reason,
                rc.request().method().name(), routes.of(rc.normalizedPath()),
                remote == null ? "unknown" : remote.hostAddress(), more);
    }

    /** The {@code @Path} templates of every resource bean (class path, and class path + method path). */
    static List<String> resourceTemplates(BeanManager beans) {
        List<String> out = new ArrayList<>();
        if (beans == null) {
            return out;
        }
        for (Bean<?> b : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            Path base = b.getBeanClass().getAnnotation(Path.class);
            if (base == null) {
                continue;
            }
            out.add(base.value());
            for (Method m : b.getBeanClass().getDeclaredMethods()) {
                Path sub = m.getAnnotation(Path.class);
                if (sub != null) {
                    out.add(base.value() + "/" + sub.value());
                }
            }
        }
        return out;
    }

    /** The configured token {@code token} is, or null: from the cache when it matched before. */
    private ApiTokens.Entry identify(String token) {
        CompletableFuture<ApiTokens.Entry> seen = known.getIfPresent(token);
        if (seen != null) {
            return seen.join(); // put completed, below
        }
        ApiTokens.Entry who = tokens.find(token);
        if (who != null) {
            known.put(token, CompletableFuture.completedFuture(who));
        }
        return who;
    }

    private static boolean mayCall(Set<Role> has, Set<Role> allowed) {
        for (Role r : has) {
            if (allowed.contains(r)) {
                return true;
            }
        }
        return false;
    }

    /** The token of an {@code Authorization: Bearer <token>} header (scheme case-insensitive), or null. */
    static String bearer(String header) {
        String h = header.trim();
        if (h.length() < 8 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String t = h.substring(7).trim();
        return t.isEmpty() || t.contains(" ") ? null : t;
    }

    private static void refuse(RoutingContext rc, ErrorCode code, String challenge, String message,
                               Map<String, Object> details) {
        rc.response().putHeader("WWW-Authenticate", challenge);
        HttpFrame.refuse(rc, code, message, details);
    }
}
