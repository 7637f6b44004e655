package dev.steadfast.tools.measure;

import java.util.Locale;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Request latencies in nanoseconds, recorded from any thread into an HdrHistogram (3 significant digits: a
 * percentile is within 0.1% of the recorded value). Percentiles are nearest-rank: p is the smallest recorded
 * value with at least p of all values at or below it.
 */
public final class Latencies {

    private final Histogram histogram = new ConcurrentHistogram(3);

    public void record(long nanos) {
        histogram.recordValue(Math.max(0, nanos));
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** The percentile {@code p} (0..1) in ms, NaN when nothing was recorded; 0 is the least value, 1 the most. */
    public double percentileMs(double p) {
        if (count() == 0) {
            return Double.NaN;
        }
        long v = p <= 0 ? histogram.getMinValue() : p >= 1 ? histogram.getMaxValue()
                : histogram.getValueAtPercentile(p * 100);
        return v / 1e6;
    }

    /** The percentile formatted as "1.23ms", or "n/a" when nothing was recorded. */
    public String ms(double p) {
        return count() == 0 ? "n/a" : String.format(Locale.ROOT, "%.2fms", percentileMs(p));
    }
}
