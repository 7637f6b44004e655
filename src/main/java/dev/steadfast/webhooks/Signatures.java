package dev.steadfast.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code X-OJS-Signature} of a delivery (ojs-webhooks 8.1): {@code sha256=} and the hex HMAC-SHA256 of
 * {@code timestamp + "." + body} under the subscription's secret; during a rotation's grace period the old secret's
 * signature follows the new one's, comma-separated (8.3), so a receiver that still holds the old secret verifies too.
 */
final class Signatures {

    private Signatures() {
    }

    static String header(String secret, String previousSecret, long timestamp, String body) {
        String first = "sha256=" + hmac(secret, timestamp, body);
        return previousSecret == null ? first : first + ",sha256=" + hmac(previousSecret, timestamp, body);
    }

    static String hmac(String secret, long timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
