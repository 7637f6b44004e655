package dev.steadfast.console;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The operator console under /admin: its login and cookies. How old its depth counts may be
 * ({@code steadfast.console.counts-max-age}) is in stats.CountsConfig, where the counts are kept.
 */
@ConfigMapping(prefix = "steadfast.console")
public interface ConsoleConfig {

    /** Require a login for every console page. On unless set to false (off in dev). */
    @WithDefault("true")
    boolean authEnabled();

    /** The single console user's name (an {@code admin}; more users with {@link #users()}). */
    @WithDefault("admin")
    @NotBlank
    String username();

    /**
     * The console user's password as a PBKDF2-HMAC-SHA256 hash, {@code pbkdf2-sha256$<iterations>$<salt>$<hash>}
     * (base64); make one with {@code java -jar quarkus-run.jar hash-password}. Without it, nobody can log in.
     */
    Optional<String> passwordHash();

    /**
     * The console's users by name with their role and password hash:
     * {@code steadfast.console.users."alice"=operator:pbkdf2-sha256$...}; roles {@code readonly} (sees every
     * page, no action), {@code operator} (acts on jobs, dead letters, queues, workflows, error groups, cron) and
     * {@code admin} (also deletes and changes settings). Make a hash with {@code java -jar quarkus-run.jar
     * hash-password}. The user of {@code username} / {@code password-hash}, when set, is an admin beside them.
     */
    Map<String, String> users();

    /**
     * The key that signs session cookies (32 characters or more). When unset, a random key is made at start-up:
     * sessions then end when the server restarts and are valid on this instance only.
     */
    Optional<String> sessionSecret();

    /** How long a login lasts. */
    @WithDefault("PT8H")
    Duration sessionTimeout();

    /**
     * Send cookies with the Secure attribute (HTTPS only). When unset, they are Secure when the request
     * arrived over HTTPS (behind a proxy, enable quarkus.http.proxy.proxy-address-forwarding for that).
     */
    Optional<Boolean> secureCookies();

    /** Failed logins from one address within 15 minutes before further attempts are refused (429). */
    @WithDefault("10")
    @Positive
    int maxFailedLogins();
}
