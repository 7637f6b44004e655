package dev.steadfast.http;

import dev.steadfast.http.ApiAccess.Role;
import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.quarkus.cache.CaffeineCache;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletableFuture;

/**
 * The Quarkus Security identity of an API token ({@link ApiAuth} reads it from the request): the configured token
 * whose SHA-256 matches ({@link ApiTokens#find}, constant-time), as a {@link SecurityIdentity} whose principal is
 * the token's name and whose roles are the token's roles; an unknown token is an
 * {@link AuthenticationFailedException}.
 *
 * <p>A token that matched is remembered in the {@value #TOKEN_CACHE} cache (quarkus-cache, bounded and expiring
 * after access, see application.properties), so its SHA-256 is computed once, not on every request. Only matches
 * are remembered: an unknown token is hashed and compared again on each request, so it can neither fill the cache
 * nor ever be taken for a known one. The configured tokens change only with a restart, which empties the cache.
 * Hashing one token is a microsecond's work, so it runs on the calling thread (the event loop).
 */
@ApplicationScoped
public class ApiTokenIdentities implements IdentityProvider<TokenAuthenticationRequest> {

    static final String TOKEN_CACHE = "steadfast-api-tokens";

    private final ApiTokens tokens;
    private final CaffeineCache known;

    public ApiTokenIdentities(ApiAuth auth, @CacheName(TOKEN_CACHE) Cache known) {
        this.tokens = auth.tokens();
        this.known = known.as(CaffeineCache.class);
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        ApiTokens.Entry who = identify(request.getToken().getToken());
        if (who == null) {
            return Uni.createFrom().failure(new AuthenticationFailedException("unknown token"));
        }
        QuarkusSecurityIdentity.Builder identity = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(who.name())).addCredential(request.getToken());
        for (Role r : who.roles()) {
            identity.addRole(r.wire());
        }
        return Uni.createFrom().item(identity.build());
    }

    /**
     * The configured token {@code token} is, or null: from the cache when it matched before. The gRPC binding
     * (grpc.GrpcAccess) identifies its callers' tokens here too.
     */
    public ApiTokens.Entry identify(String token) {
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
}
