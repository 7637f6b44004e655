package dev.steadfast.maintenance;

import dev.steadfast.store.DatabaseFaults;
import org.jboss.logging.Logger;

/**
 * What a maintenance task says about its failures: while the database is away (restarting, unreachable, out of
 * connections: {@link DatabaseFaults#isTransient}) one WARN line when the outage starts and one INFO line when a
 * run succeeds again, with how many runs failed in between; never a stack trace for these. Any other failure is
 * logged at WARN on every run with its class and message. One instance per task; runs of a task never overlap,
 * but they may continue on another thread, hence the synchronization.
 */
final class OutageLog {

    private final Logger log;
    private final String task;
    private int failedRuns;
    private long since;

    OutageLog(Class<?> owner, String task) {
        this.log = Logger.getLogger(owner);
        this.task = task;
    }

    synchronized void failed(Throwable e) {
        if (!DatabaseFaults.isTransient(e)) {
            log.warnf("%s failed: %s", task, DatabaseFaults.describe(e));
            return;
        }
        if (failedRuns++ == 0) {
            since = System.currentTimeMillis();
            log.warnf("%s paused: the database is unavailable (%s); retrying every run, logging again when it"
                    + " recovers", task, DatabaseFaults.describe(e));
        }
    }

    synchronized void succeeded() {
        if (failedRuns > 0) {
            log.infof("%s resumed: the database is back after %d ms (%d failed runs)", task,
                    System.currentTimeMillis() - since, failedRuns);
            failedRuns = 0;
        }
    }

    synchronized boolean inOutage() {
        return failedRuns > 0;
    }
}
