package dev.steadfast.console.auth;

import dev.steadfast.http.ConsoleErrorPage;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TrustedAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Set;

/**
 * The console's Quarkus Security mechanism: on a console path (/admin...) the user of the signed session cookie
 * ({@link SessionCodec}) becomes the request's {@link SecurityIdentity}, with the roles of that user's console role
 * ({@link ConsoleUserIdentities}), so everything after it (ConsoleFilters' role check, the templates, the audit log)
 * asks the identity who is acting. Without a logged-in session the request stays anonymous and the console's
 * filters send it to the login page. With login switched off (steadfast.console.auth-enabled=false) every console
 * request is the identity {@value #LOGIN_OFF} with the admin role, as before roles existed. Other paths are left
 * to the API's mechanism (http.ApiAuth), which runs after this one.
 */
@ApplicationScoped
public class ConsoleSessionAuth implements HttpAuthenticationMechanism {

    /** The cookie the console's session travels in (ConsoleFilters writes it). */
    public static final String SESSION_COOKIE = "steadfast_session";
    static final String LOGIN_OFF = "console";

    private final ConsoleAuth auth;
    private final SessionCodec codec;
    private final Clock clock;
    private final SecurityIdentity loginOff = ConsoleUserIdentities.identity(LOGIN_OFF, ConsoleRole.ADMIN);

    public ConsoleSessionAuth(ConsoleAuth auth, SessionCodec codec, Clock clock) {
        this.auth = auth;
        this.codec = codec;
        this.clock = clock;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext rc, IdentityProviderManager identities) {
        if (!ConsoleErrorPage.isConsole(rc.normalizedPath())) {
            return Uni.createFrom().nullItem();
        }
        if (!auth.enabled()) {
            return Uni.createFrom().item(loginOff);
        }
        Cookie c = rc.request().getCookie(SESSION_COOKIE);
        Session s = c == null ? null : codec.decode(c.getValue(), clock.instant()).orElse(null);
        if (s == null || !s.loggedIn()) {
            return Uni.createFrom().nullItem();
        }
        AuthenticationRequest request = HttpSecurityUtils.setRoutingContextAttribute(
                new TrustedAuthenticationRequest(s.user()), rc);
        return identities.authenticate(request).onFailure(AuthenticationFailedException.class).recoverWithNull();
    }

    /** Console pages are open to Quarkus Security (ConsoleFilters is their guard): no challenge of its own. */
    @Override
    public Uni<Boolean> sendChallenge(RoutingContext rc) {
        return Uni.createFrom().item(false);
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext rc) {
        return Uni.createFrom().nullItem();
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TrustedAuthenticationRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext rc) {
        return Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.COOKIE, SESSION_COOKIE));
    }

    /** Before the API's mechanism, which leaves console paths alone. */
    @Override
    public int getPriority() {
        return DEFAULT_PRIORITY + 100;
    }
}
