package dev.steadfast.domain;

import java.util.UUID;
import java.util.regex.Pattern;

/**
 * UUIDv7 job ids (RFC 9562 section 5.7): 48 bits of Unix milliseconds, version 7, 12 bits of a per-millisecond
 * counter, the RFC variant, and 62 random bits. Within one process ids are strictly increasing, so jobs
 * enqueued in the same millisecond keep their order; the timestamp is the caller's clock reading.
 *
 * <p>The random bits come from {@link IdEntropy}, a holder initialised at run time (see there), so a native
 * image never carries a seed fixed at build time.
 */
public final class JobIds {

    /** The only accepted form: lowercase, hyphenated, version 7, RFC variant. */
    public static final Pattern UUID_V7 =
            Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

    private static long lastMillis = -1;
    private static int counter;

    private JobIds() {
    }

    /** A new UUIDv7 for the given Unix time in milliseconds. */
    public static UUID next(long unixMillis) {
        long millis;
        int seq;
        synchronized (JobIds.class) {
            if (unixMillis > lastMillis) {
                lastMillis = unixMillis;
                counter = IdEntropy.RANDOM.nextInt(1 << 10); // random start leaves room for 3k ids in this millisecond
            } else if (++counter > 0xFFF) {
                lastMillis++; // counter exhausted: borrow the next millisecond rather than repeat
                counter = 0;
            }
            millis = lastMillis;
            seq = counter;
        }
        long msb = (millis << 16) | 0x7000L | seq;
        long lsb = (IdEntropy.RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /** Whether {@code s} is a lowercase hyphenated UUIDv7. */
    public static boolean isUuidV7(String s) {
        return s != null && UUID_V7.matcher(s).matches();
    }
}
