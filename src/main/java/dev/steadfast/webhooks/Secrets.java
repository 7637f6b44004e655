package dev.steadfast.webhooks;

import dev.steadfast.domain.OjsException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * Signing secrets (ojs-webhooks 8.1): generated as {@code whsec_} and 32 random bytes (base64url), or given by the
 * caller: 16 to 256 printable ASCII characters without spaces, so a secret is never too short to guess cheaply and
 * always survives a header or a config file unchanged.
 */
final class Secrets {

    static final Pattern FORM = Pattern.compile("^[\\x21-\\x7e]{16,256}$");
    private static final SecureRandom RANDOM = new SecureRandom();

    private Secrets() {
    }

    static String generate() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    static String check(String field, String secret) {
        if (!FORM.matcher(secret).matches()) {
            throw OjsException.invalidField(field, "'" + field + "' must be 16 to 256 printable ASCII characters"
                    + " without spaces; leave it out to have one generated.", "16 to 256 printable characters",
                    secret.length() + " characters");
        }
        return secret;
    }
}
