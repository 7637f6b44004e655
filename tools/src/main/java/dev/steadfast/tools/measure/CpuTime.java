package dev.steadfast.tools.measure;

import java.time.Duration;
import java.util.Locale;

/**
 * CPU time used so far by this process and, when its pid is known (> 0), by the server: how many cores each kept
 * busy over a stretch of wall time, so a run bound by its own client shows as such.
 */
public record CpuTime(long clientNanos, long serverNanos) {

    public static CpuTime now(long serverPid) {
        long server = serverPid > 0 ? ProcessHandle.of(serverPid).map(CpuTime::nanos).orElse(-1L) : -1L;
        return new CpuTime(nanos(ProcessHandle.current()), server);
    }

    /** Average cores used by this process since {@code start}. */
    public double clientCores(CpuTime start, long wallNanos) {
        return cores(clientNanos - start.clientNanos, wallNanos);
    }

    /** Average cores used by the server since {@code start}, NaN if unknown. */
    public double serverCores(CpuTime start, long wallNanos) {
        return serverNanos >= 0 && start.serverNanos >= 0 ? cores(serverNanos - start.serverNanos, wallNanos)
                : Double.NaN;
    }

    /** "  cpu client=1.52 server=0.41 cores": average cores busy since {@code start}. */
    public String since(CpuTime start, long wallNanos) {
        String s = String.format(Locale.ROOT, "  cpu client=%.2f", clientCores(start, wallNanos));
        if (serverNanos >= 0 && start.serverNanos >= 0) {
            s += String.format(Locale.ROOT, " server=%.2f", serverCores(start, wallNanos));
        }
        return s + " cores";
    }

    private static double cores(long cpuNanos, long wallNanos) {
        return (double) cpuNanos / wallNanos;
    }

    private static long nanos(ProcessHandle h) {
        return h.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }
}
