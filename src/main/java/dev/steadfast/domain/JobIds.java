package dev.steadfast.domain;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/**
 * UUIDv7 job ids (RFC 9562 section 5.7): 48 bits of Unix milliseconds, version 7, 12 bits of a per-millisecond
 * counter, the RFC variant, and 62 random bits. Within one process ids are strictly increasing, so jobs
 * enqueued in the same millisecond keep their order; the timestamp is the caller's clock reading.
 *
 * <p>A job id's random bits come from {@link IdEntropy}'s SecureRandom, a holder initialised at run time (see
 * there), so a native image never carries a seed fixed at build time. Ids that must be unique and ordered but need
 * not be hard to guess (events, requests, webhook deliveries) take {@link #nextPlain}: the same form from
 * {@link ThreadLocalRandom}, without the SecureRandom's lock and its read of {@code /dev/urandom} (about 300 ns a
 * call; a batch of 1,000 jobs makes 1,000 event ids).
 */
public final class JobIds {

    /** The only accepted form: lowercase, hyphenated, version 7, RFC variant. */
    public static final Pattern UUID_V7 =
            Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

    private static long lastMillis = -1;
    private static int counter;

    private JobIds() {
    }

    /** A new UUIDv7 for the given Unix time in milliseconds: a job's id. */
    public static UUID next(long unixMillis) {
        return next(unixMillis, IdEntropy.RANDOM);
    }

    /** A new UUIDv7 like {@link #next}, its random bits from {@link ThreadLocalRandom}: unique, not unguessable. */
    public static UUID nextPlain(long unixMillis) {
        return next(unixMillis, ThreadLocalRandom.current());
    }

    private static UUID next(long unixMillis, RandomGenerator random) {
        long millis;
        int seq;
        synchronized (JobIds.class) {
            if (unixMillis > lastMillis) {
                lastMillis = unixMillis;
                counter = random.nextInt(1 << 10); // random start leaves room for 3k ids in this millisecond
            } else if (++counter > 0xFFF) {
                lastMillis++; // counter exhausted: borrow the next millisecond rather than repeat
                counter = 0;
            }
            millis = lastMillis;
            seq = counter;
        }
        long msb = (millis << 16) | 0x7000L | seq;
        long lsb = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /** Whether {@code s} is a lowercase hyphenated UUIDv7. */
    public static boolean isUuidV7(String s) {
        return s != null && UUID_V7.matcher(s).matches();
    }
}
