package dev.steadfast.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * How far the database's clock is from this machine's, estimated from round trips the way NTP does: the
 * database read its clock somewhere between the request leaving ({@code sent}) and the answer arriving
 * ({@code received}), so the offset is {@code database - midpoint}, wrong by at most half the round trip. Of
 * several samples the one with the shortest round trip is the tightest, so it wins.
 */
public final class ClockOffset {

    private ClockOffset() {
    }

    /** One round trip: local time before, the database's time, local time after. */
    public record Sample(Instant sent, Instant database, Instant received) {

        public Duration roundTrip() {
            return Duration.between(sent, received);
        }

        /** The database's clock minus this machine's at the midpoint of the round trip. */
        public Duration offset() {
            Instant midpoint = sent.plus(roundTrip().dividedBy(2));
            return Duration.between(midpoint, database);
        }
    }

    /** The offset of the sample with the shortest round trip; zero when there is none. */
    public static Duration best(List<Sample> samples) {
        Sample best = null;
        for (Sample s : samples) {
            if (s.roundTrip().isNegative()) {
                continue; // the local clock stepped back during the round trip: the sample means nothing
            }
            if (best == null || s.roundTrip().compareTo(best.roundTrip()) < 0) {
                best = s;
            }
        }
        return best == null ? Duration.ZERO : best.offset();
    }
}
