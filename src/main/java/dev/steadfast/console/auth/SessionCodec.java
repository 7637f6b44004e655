package dev.steadfast.console.auth;

import dev.steadfast.console.ConsoleConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jboss.logging.Logger;

/**
 * Writes and reads the session cookie: {@code base64url(v1:user:csrf:expiry).base64url(HMAC-SHA256)}. The
 * server keeps no session state; a cookie whose signature does not verify, or that has expired, is no session.
 * The key is steadfast.console.session-secret, or, when that is unset, the key the instances on the database
 * share ({@link SessionKeys} sets it at start-up; until then a random one).
 *
 * <p>Hand-made rather than the encrypted cookie of Quarkus's form authentication
 * ({@code quarkus.http.auth.session.encryption-key}): the cookie must carry the session's CSRF token too, and exist
 * before login (the login form is CSRF-checked, and the console without login still checks every form), which
 * the form-authentication cookie, written only for a logged-in user, cannot; see ConsoleFilters. It is one HMAC
 * from the JDK (javax.crypto), with nothing stored on the server.
 */
@ApplicationScoped
public class SessionCodec {

    private static final Logger LOG = Logger.getLogger(SessionCodec.class);
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder D64 = Base64.getUrlDecoder();

    private final SecureRandom random = new SecureRandom();
    private final boolean configured;
    private volatile byte[] key;

    public SessionCodec(ConsoleConfig config) {
        Optional<String> secret = config.sessionSecret();
        if (secret.isPresent()) {
            if (secret.get().length() < 32) {
                throw new IllegalArgumentException("steadfast.console.session-secret must be at least 32 characters");
            }
            this.key = secret.get().getBytes(StandardCharsets.UTF_8);
            this.configured = true;
        } else {
            byte[] k = new byte[32];
            random.nextBytes(k);
            this.key = k;
            this.configured = false;
        }
    }

    /** Whether steadfast.console.session-secret gives the key (it then wins over the shared one). */
    public boolean configured() {
        return configured;
    }

    /** Signs with {@code shared} from now on (the key kept in the database), unless a key is configured. */
    void useKey(byte[] shared) {
        if (configured) {
            return;
        }
        if (shared.length < 32) {
            throw new IllegalArgumentException("a session key needs 32 bytes or more");
        }
        this.key = shared.clone();
        LOG.info("console sessions are signed with the key kept in the database, shared by every instance without"
                + " steadfast.console.session-secret");
    }

    /**
     * A short public fingerprint of the signing key (31 bits of a SHA-256 of it, never 0), by which instances on
     * one database tell whether they sign sessions alike ({@link SessionKeys}). It reveals nothing usable
     * about a key of 32 or more characters.
     */
    public int keyFingerprint() {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(
                    ("steadfast-session-key-fingerprint:" + B64.encodeToString(key)).getBytes(StandardCharsets.UTF_8));
            int f = ((d[0] & 0x7f) << 24) | ((d[1] & 0xff) << 16) | ((d[2] & 0xff) << 8) | (d[3] & 0xff);
            return f == 0 ? 1 : f;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A fresh, unguessable CSRF token. */
    public String newToken() {
        byte[] b = new byte[24];
        random.nextBytes(b);
        return B64.encodeToString(b);
    }

    public String encode(Session s) {
        String user = s.user() == null ? "" : B64.encodeToString(s.user().getBytes(StandardCharsets.UTF_8));
        String payload = "v1:" + user + ":" + s.csrf() + ":" + s.expiresAt().getEpochSecond();
        String body = B64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        return body + "." + B64.encodeToString(sign(body));
    }

    /** The session in {@code cookie}, if its signature verifies and it has not expired at {@code now}. */
    public Optional<Session> decode(String cookie, Instant now) {
        try {
            int dot = cookie == null ? -1 : cookie.indexOf('.');
            if (dot < 1 || !MessageDigest.isEqual(sign(cookie.substring(0, dot)), D64.decode(cookie.substring(dot + 1)))) {
                return Optional.empty();
            }
            String[] p = new String(D64.decode(cookie.substring(0, dot)), StandardCharsets.UTF_8).split(":", -1);
            if (p.length != 4 || !p[0].equals("v1") || p[2].isEmpty()) {
                return Optional.empty();
            }
            Instant expires = Instant.ofEpochSecond(Long.parseLong(p[3]));
            if (!expires.isAfter(now)) {
                return Optional.empty();
            }
            String user = p[1].isEmpty() ? null : new String(D64.decode(p[1]), StandardCharsets.UTF_8);
            return Optional.of(new Session(user, p[2], expires));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private byte[] sign(String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(body.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
