package dev.steadfast.http;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.http.ApiAccess.Role;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Bearer-token authentication of every /ojs route (ojs-http-binding.md 5, ojs-security.md 6 and 7), as the Quarkus
 * Security {@link HttpAuthenticationMechanism}: it reads {@code Authorization: Bearer <token>} and hands the token
 * to {@link ApiTokenIdentities}, whose identity carries the token's name as principal and its roles, which the
 * resources' {@code @RolesAllowed} check ({@link ApiAccess} is the matrix they follow). A missing, malformed or
 * unknown token on an /ojs route is {@code 401 unauthenticated} with {@code WWW-Authenticate: Bearer}, as an OJS
 * envelope written by {@link #sendChallenge} (proactive authentication: before any resource, so a path no resource
 * serves is refused too); a known token without a role the endpoint allows is {@code 403 permission_denied}
 * ({@link ApiAccessDenied}). The manifest and health stay public: their requests are not authenticated at all,
 * whatever header they carry. With {@code steadfast.auth.enabled=false} every request is the identity
 * {@value #OPEN_PRINCIPAL} with every role; with it on and no token configured the server does not start (an
 * operator gets a clear message at once, not a fleet of 401s later).
 *
 * <p>Every refusal is logged at WARN (ojs-security.md 11.1) with the status, the reason, the method, the route
 * template ({@link RouteTemplates}, from the resources' {@code @Path}s) and the client's address, never the token
 * or the header; at most {@code steadfast.auth.failure-log.lines} lines per {@code window} ({@link LogBudget}), so a
 * flood of bad requests cannot flood the log: the next line logged says how many were left out.
 */
@ApplicationScoped
public class ApiAuth implements HttpAuthenticationMechanism {

    private static final Logger LOG = Logger.getLogger(ApiAuth.class);
    static final String REALM = "Bearer realm=\"steadfast\"";
    static final String OPEN_PRINCIPAL = "authentication-off";
    /** Why the request in a routing context was not authenticated ({@link Refusal}), for {@link #sendChallenge}. */
    private static final String REFUSAL = ApiAuth.class.getName() + ".refusal";

    /** A 401: the reason logged, the challenge sent and the envelope's message. */
    private record Refusal(String reason, String challenge, String message) {
    }

    private static final Refusal MISSING = new Refusal("no Authorization header", REALM,
            "This endpoint requires a token: send Authorization: Bearer <token>.");
    private static final Refusal MALFORMED = new Refusal("Authorization is not 'Bearer <token>'",
            REALM + ", error=\"invalid_token\"", "The Authorization header must be 'Bearer <token>'.");
    private static final Refusal UNKNOWN = new Refusal("unknown token", REALM + ", error=\"invalid_token\"",
            "The token is not valid.");

    private final boolean enabled;
    private final ApiTokens tokens;
    private final Clock clock;
    private final BeanManager beans;
    private final LogBudget failures;
    private final SecurityIdentity open;
    private volatile RouteTemplates routes = new RouteTemplates(List.of());

    /** Without beans: for tests of the configuration, which never check a request. */
    ApiAuth(AuthConfig config, Clock clock) {
        this(config, clock, null);
    }

    @Inject
    public ApiAuth(AuthConfig config, Clock clock, BeanManager beans) {
        this.clock = clock == null ? Clock.systemUTC() : clock;
        this.beans = beans;
        this.failures = new LogBudget(config.failureLog().lines(),
                Math.max(1, config.failureLog().window().toMillis()));
        this.enabled = config.enabled();
        this.tokens = ApiTokens.parse(config.tokens());
        if (enabled && tokens.isEmpty()) {
            throw new IllegalStateException("API authentication is on (steadfast.auth.enabled defaults to true) but"
                    + " no token is configured. Make one with 'java -jar quarkus-run.jar token --role admin' and set the"
                    + " line it prints (steadfast.auth.tokens.\"<name>\"=<roles>:sha256:<hex>), or switch"
                    + " authentication off explicitly with steadfast.auth.enabled=false.");
        }
        QuarkusSecurityIdentity.Builder everything = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(OPEN_PRINCIPAL));
        for (Role r : Role.values()) {
            everything.addRole(r.wire());
        }
        this.open = everything.build();
    }

    public boolean enabled() {
        return enabled;
    }

    /** The configured tokens, which {@link ApiTokenIdentities} matches presented tokens against. */
    ApiTokens tokens() {
        return tokens;
    }

    void announce(@Observes StartupEvent e) {
        if (enabled) {
            LOG.infof("API authentication on: %d token(s) configured", tokens.size());
            routes = new RouteTemplates(resourceTemplates(beans));
        } else {
            LOG.warn("API authentication is OFF (steadfast.auth.enabled=false): anyone who reaches the port can use"
                    + " the OJS API");
        }
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext rc, IdentityProviderManager identities) {
        String path = rc.normalizedPath();
        if (ConsoleErrorPage.isConsole(path)) {
            return Uni.createFrom().nullItem(); // the console's own mechanism and login (console.auth)
        }
        if (!enabled) {
            authenticated(rc);
            return Uni.createFrom().item(open);
        }
        if (!path.startsWith("/ojs/") || ApiAccess.isPublic(rc.request().method().name(), path)) {
            return Uni.createFrom().nullItem(); // anonymous: public routes, the console (its own login), probes
        }
        String header = rc.request().getHeader("Authorization");
        String token = header == null || header.isBlank() ? null : bearer(header);
        if (token == null) {
            return refused(rc, header == null || header.isBlank() ? MISSING : MALFORMED);
        }
        AuthenticationRequest request = HttpSecurityUtils.setRoutingContextAttribute(
                new TokenAuthenticationRequest(new TokenCredential(token, "bearer")), rc);
        return identities.authenticate(request).onItem().ifNotNull().invoke(i -> authenticated(rc))
                .onFailure(AuthenticationFailedException.class).invoke(f -> rc.put(REFUSAL, UNKNOWN));
    }

    /**
     * An identity was established: Quarkus's authentication failure handler leaves the routing context. With
     * proactive authentication Quarkus puts one in every request's context, and while it is there the REST layer's
     * next filter builds a fresh mapping of every resource path on each request, only to tag the metrics of an
     * authentication failure with the route template (5% of the event loops' profile samples in W2). Once the
     * request is authenticated no authentication failure can follow, and the REST layer removes that handler itself
     * when it begins processing: this removes it a few filters earlier (docs/decisions/http-stack-cost-per-request.md).
     */
    private static void authenticated(RoutingContext rc) {
        rc.remove(QuarkusHttpUser.AUTH_FAILURE_HANDLER);
    }

    private static Uni<SecurityIdentity> refused(RoutingContext rc, Refusal why) {
        rc.put(REFUSAL, why);
        return Uni.createFrom().failure(new AuthenticationFailedException(why.reason()));
    }

    /** The 401 as an OJS envelope with its challenge, logged (within the budget); also for an anonymous caller. */
    @Override
    public Uni<Boolean> sendChallenge(RoutingContext rc) {
        Refusal why = rc.get(REFUSAL);
        if (why == null) {
            why = MISSING; // an anonymous request an endpoint's roles refused
        }
        logFailure(rc.request(), rc.normalizedPath(), ErrorCode.UNAUTHENTICATED, why.reason());
        rc.response().putHeader("WWW-Authenticate", why.challenge());
        HttpFrame.refuse(rc, ErrorCode.UNAUTHENTICATED, why.message(), Map.of("scheme", "Bearer"));
        return Uni.createFrom().item(true);
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext rc) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", REALM));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TokenAuthenticationRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext rc) {
        return Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.AUTHORIZATION, "bearer"));
    }

    /** Logs a refused request at WARN, unless this window's budget of lines is spent. */
    void logFailure(HttpServerRequest request, String path, ErrorCode code, String reason) {
        SocketAddress remote = request.remoteAddress();
        logFailure(request.method().name() + " " + routes.of(path), remote == null ? null : remote.hostAddress(), code,
                reason);
    }

    /**
     * Logs a refused call at WARN, unless this window's budget of lines is spent: {@code what} names the call
     * ({@code POST /ojs/v1/jobs}, or {@code gRPC ojs.v1.OJSService/Enqueue}), {@code client} its address or null.
     */
    public void logFailure(String what, String client, ErrorCode code, String reason) {
        long skipped = failures.admit(clock.millis());
        if (skipped == LogBudget.SKIP) {
            return;
        }
        String more = skipped == 0 ? "" : "; " + skipped + " earlier failed authentication(s) were not logged (at most "
                + failures.lines() + " lines per " + Duration.ofMillis(failures.windowMillis()) + ")";
        LOG.warnf("failed authentication: %d %s (%s) on %s from %s%s", code.status(), code.wire(), reason, what,
                client == null ? "unknown" : client, more);
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

    /**
     * The token of an {@code Authorization: Bearer <token>} header (scheme case-insensitive), or null; the gRPC
     * binding reads its {@code authorization} metadata with it too.
     */
    public static String bearer(String header) {
        String h = header.trim();
        if (h.length() < 8 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String t = h.substring(7).trim();
        return t.isEmpty() || t.contains(" ") ? null : t;
    }
}
