package dev.steadfast.console.auth;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * The console password's stored form: {@code pbkdf2-sha256$<iterations>$<salt>$<hash>}, salt and hash in base64,
 * PBKDF2 with HMAC-SHA256 from the JDK (javax.crypto), compared in constant time. The iteration count travels in
 * the string, so it can be raised without breaking stored hashes; the server jar's {@code hash-password} command
 * writes the same format (600,000 iterations, OWASP's 2023 figure).
 */
public final class PasswordHash {

    static final String PREFIX = "pbkdf2-sha256";
    static final int MIN_ITERATIONS = 1_000;

    private final int iterations;
    private final byte[] salt;
    private final byte[] hash;

    private PasswordHash(int iterations, byte[] salt, byte[] hash) {
        this.iterations = iterations;
        this.salt = salt;
        this.hash = hash;
    }

    /** Reads a stored hash; throws IllegalArgumentException saying what is wrong with it. */
    public static PasswordHash parse(String stored) {
        String[] p = stored.trim().split("\\$");
        if (p.length != 4 || !p[0].equals(PREFIX)) {
            throw new IllegalArgumentException("not a " + PREFIX + "$<iterations>$<salt>$<hash> string");
        }
        int n;
        try {
            n = Integer.parseInt(p[1]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("iterations is not a number: " + p[1]);
        }
        if (n < MIN_ITERATIONS) {
            throw new IllegalArgumentException("at least " + MIN_ITERATIONS + " iterations are required, got " + n);
        }
        Base64.Decoder b64 = Base64.getDecoder();
        byte[] salt = b64.decode(p[2]);
        byte[] hash = b64.decode(p[3]);
        if (salt.length < 8 || hash.length < 16) {
            throw new IllegalArgumentException("salt or hash too short");
        }
        return new PasswordHash(n, salt, hash);
    }

    /** Hashes {@code password} with a fresh random salt. */
    public static String create(char[] password, int iterations) {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        byte[] hash = derive(password, salt, iterations, 32);
        Base64.Encoder b64 = Base64.getEncoder();
        return PREFIX + "$" + iterations + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(hash);
    }

    /** True when {@code password} hashes to the stored hash (constant-time comparison). */
    public boolean matches(String password) {
        byte[] candidate = derive(password.toCharArray(), salt, iterations, hash.length);
        return MessageDigest.isEqual(candidate, hash);
    }

    /** Burns the same time as a real check: for an unknown user name, so timing does not reveal it. */
    public void matchesNothing(String password) {
        derive((password + "\u0000").toCharArray(), salt, iterations, hash.length);
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations, int bytes) {
        try {
            PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, bytes * 8);
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every JDK", e);
        }
    }
}
