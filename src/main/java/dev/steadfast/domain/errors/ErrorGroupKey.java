package dev.steadfast.domain.errors;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Which error group a failure belongs to: its error type and its normalised message ({@link ErrorMessages}), and
 * the fingerprint that names the group (the first 8 bytes of SHA-256 over both, as a signed long: the key of
 * {@code error_groups} and the {@code error_group} column of a failed job). Two failures are in one group exactly
 * when type and normalised message are equal; a fingerprint collision between two different groups is about one
 * in 2^32 at 65,000 groups, and would only merge their counts.
 *
 * @param type    the error type, at most {@link #MAX_TYPE_CHARS} characters ("" when the worker sent none)
 * @param message the normalised message
 */
public record ErrorGroupKey(long fingerprint, String type, String message) {

    /** How much of an error type is kept. */
    public static final int MAX_TYPE_CHARS = 200;

    /** The group of a failure with this error type and (raw) message. */
    public static ErrorGroupKey of(String type, String message) {
        String t = type == null ? "" : type.strip();
        if (t.length() > MAX_TYPE_CHARS) {
            t = t.substring(0, MAX_TYPE_CHARS);
        }
        String m = ErrorMessages.normalise(message);
        return new ErrorGroupKey(fingerprint(t, m), t, m);
    }

    static long fingerprint(String type, String message) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(type.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            byte[] d = sha.digest(message.getBytes(StandardCharsets.UTF_8));
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (d[i] & 0xff);
            }
            return v;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
