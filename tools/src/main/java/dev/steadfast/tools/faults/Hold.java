package dev.steadfast.tools.faults;

/**
 * One worker's hold of one job: from the FETCH answer to the end of the lease it certainly held (server-side the
 * lease runs at least until fetchSent + lease), or to its accepted ACK when the worker named itself and answered
 * later than that. Times in nanoseconds since the run started. Two holds of one job must never overlap.
 */
final class Hold {
    final String job;
    final String worker;
    final boolean named;
    final long fetchSent;
    final long fetchReceived;
    final long lease;
    volatile long ackSent = -1;
    volatile boolean acceptedAck;

    Hold(String job, String worker, boolean named, long fetchSent, long fetchReceived, long leaseMs) {
        this.job = job;
        this.worker = worker;
        this.named = named;
        this.fetchSent = fetchSent;
        this.fetchReceived = fetchReceived;
        this.lease = leaseMs * 1_000_000L;
    }

    long start() {
        return fetchReceived;
    }

    long end() {
        long byLease = fetchSent + lease;
        return named && acceptedAck ? Math.max(byLease, ackSent) : byLease;
    }

    boolean overlaps(Hold other) {
        return Math.max(start(), other.start()) < Math.min(end(), other.end());
    }
}
