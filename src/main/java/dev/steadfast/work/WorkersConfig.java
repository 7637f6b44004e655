package dev.steadfast.work;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How the server treats workers: worker ids, directives in heartbeats. The heartbeat timeout, which the pruner
 * reads too, is in maintenance.WorkerTimeoutConfig.
 */
@ConfigMapping(prefix = "steadfast.workers")
interface WorkersConfig {

    /**
     * Honour a {@code test_directive} ("quiet" or "terminate") in a leased job's meta by returning it from that
     * worker's heartbeats. A hook for testing worker SDKs' directive handling (the OJS conformance suite uses
     * it); off unless set (on in dev and test).
     */
    @WithDefault("false")
    boolean testDirectives();

    /**
     * Refuse (400) a FETCH, ACK, FAIL, snooze or batch ACK that does not name its {@code worker_id}, so every
     * answer is checked against the lease holder. Off by default: the official OJS SDKs send no worker_id on
     * ACK and FAIL.
     */
    @WithDefault("false")
    boolean requireWorkerId();

    /**
     * While this server shuts down (the {@code quarkus.shutdown.delay} after SIGTERM), answer heartbeats with
     * the directive {@code quiet} so workers stop fetching and drain (ojs-graceful-shutdown.md). Turn it off
     * where several instances run behind one address and a rolling restart of one should not quiet the workers
     * that happen to reach it.
     */
    @WithDefault("true")
    boolean quietOnShutdown();
}
