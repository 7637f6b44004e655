package dev.steadfast.console.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TrustedAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The Quarkus Security identity of a console user whose signed session cookie {@link ConsoleSessionAuth} trusted:
 * the principal is the user's name, the roles are the user's console role and those it includes
 * ({@link ConsoleRole#names}). A user no longer configured (removed, then the server restarted) is an
 * {@link AuthenticationFailedException}: the session is worth nothing any more.
 */
@ApplicationScoped
class ConsoleUserIdentities implements IdentityProvider<TrustedAuthenticationRequest> {

    private final ConsoleAuth auth;

    public ConsoleUserIdentities(ConsoleAuth auth) {
        this.auth = auth;
    }

    @Override
    public Class<TrustedAuthenticationRequest> getRequestType() {
        return TrustedAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TrustedAuthenticationRequest request,
                                              AuthenticationRequestContext context) {
        return auth.users().find(request.getPrincipal())
                .map(u -> Uni.createFrom().<SecurityIdentity>item(identity(u.name(), u.role())))
                .orElseGet(() -> Uni.createFrom().failure(new AuthenticationFailedException("unknown console user")));
    }

    static SecurityIdentity identity(String name, ConsoleRole role) {
        return QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal(name)).addRoles(role.names())
                .build();
    }
}
