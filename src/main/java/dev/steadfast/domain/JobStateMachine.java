package dev.steadfast.domain;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The OJS job lifecycle (ojs-core.md section 6.3) as one table: for each operation, the states it may start from
 * and the states it may lead to. Every state change in the server goes through an operation listed here; the
 * store turns {@link #sources(Operation)} into the {@code WHERE state = ANY(...)} guard of its UPDATE, so an
 * invalid transition can never be written, and the service uses {@link #check} to explain a refusal.
 */
public final class JobStateMachine {

    /** Everything that changes a job's state. */
    public enum Operation {
        /** A due scheduled or retryable job becomes available (timer). */
        PROMOTE,
        /** A pending job is activated. */
        ACTIVATE,
        /** A worker claims a job; due scheduled and retryable jobs are claimed directly. */
        FETCH,
        /** The worker reports success. */
        ACK,
        /** The worker reports failure: retry, discard, dead-letter, or hand back without failing. */
        FAIL,
        /** The worker extends its lease. */
        HEARTBEAT,
        /** The worker hands the job back to run later without failing it (Steadfast's snooze extension). */
        SNOOZE,
        /** The lease ran out without an answer: a failed attempt. */
        EXPIRE_LEASE,
        /**
         * A job not started yet whose expires_at has passed is discarded instead of being handed out (ojs-core 5.2):
         * by the expiry reaper, by the claim that passes over it, or when it is read ({@link JobExpiry}).
         */
        EXPIRE,
        /** A producer or operator cancels the job. */
        CANCEL,
        /** An operator re-enqueues a dead-lettered job. */
        RETRY_DEAD_LETTER,
        /** An operator makes a scheduled or retryable job available now instead of waiting for its time. */
        RETRY_NOW,
        /**
         * An operator re-enqueues a cancelled or (not dead-lettered) discarded job as a new run
         * (ojs-admin-api.md 7.4); dead letters take {@link #RETRY_DEAD_LETTER}.
         */
        REVIVE,
        /**
         * An operator gives up on a job waiting for its next attempt (a whole error group at once): it is discarded
         * without that attempt, kept in the history like any discarded job.
         */
        DISCARD
    }

    private static final Map<Operation, Set<JobState>> SOURCES = new EnumMap<>(Operation.class);
    private static final Map<Operation, Set<JobState>> TARGETS = new EnumMap<>(Operation.class);

    static {
        rule(Operation.PROMOTE, EnumSet.of(JobState.SCHEDULED, JobState.RETRYABLE), EnumSet.of(JobState.AVAILABLE));
        rule(Operation.ACTIVATE, EnumSet.of(JobState.PENDING), EnumSet.of(JobState.AVAILABLE));
        rule(Operation.FETCH, EnumSet.of(JobState.AVAILABLE, JobState.SCHEDULED, JobState.RETRYABLE),
                EnumSet.of(JobState.ACTIVE));
        rule(Operation.ACK, EnumSet.of(JobState.ACTIVE), EnumSet.of(JobState.COMPLETED));
        rule(Operation.FAIL, EnumSet.of(JobState.ACTIVE),
                EnumSet.of(JobState.RETRYABLE, JobState.DISCARDED, JobState.AVAILABLE));
        rule(Operation.HEARTBEAT, EnumSet.of(JobState.ACTIVE), EnumSet.of(JobState.ACTIVE));
        rule(Operation.SNOOZE, EnumSet.of(JobState.ACTIVE), EnumSet.of(JobState.SCHEDULED, JobState.AVAILABLE));
        rule(Operation.EXPIRE_LEASE, EnumSet.of(JobState.ACTIVE),
                EnumSet.of(JobState.AVAILABLE, JobState.RETRYABLE, JobState.DISCARDED));
        rule(Operation.EXPIRE, EnumSet.of(JobState.AVAILABLE, JobState.SCHEDULED, JobState.RETRYABLE,
                JobState.PENDING), EnumSet.of(JobState.DISCARDED));
        rule(Operation.CANCEL, EnumSet.of(JobState.SCHEDULED, JobState.AVAILABLE, JobState.PENDING,
                JobState.ACTIVE, JobState.RETRYABLE), EnumSet.of(JobState.CANCELLED));
        rule(Operation.RETRY_DEAD_LETTER, EnumSet.of(JobState.DISCARDED), EnumSet.of(JobState.AVAILABLE));
        rule(Operation.RETRY_NOW, EnumSet.of(JobState.SCHEDULED, JobState.RETRYABLE), EnumSet.of(JobState.AVAILABLE));
        rule(Operation.REVIVE, EnumSet.of(JobState.CANCELLED, JobState.DISCARDED), EnumSet.of(JobState.AVAILABLE));
        rule(Operation.DISCARD, EnumSet.of(JobState.RETRYABLE), EnumSet.of(JobState.DISCARDED));
    }

    private JobStateMachine() {
    }

    private static void rule(Operation op, Set<JobState> from, Set<JobState> to) {
        SOURCES.put(op, Collections.unmodifiableSet(from));
        TARGETS.put(op, Collections.unmodifiableSet(to));
    }

    /** The states {@code op} may start from. */
    public static Set<JobState> sources(Operation op) {
        return SOURCES.get(op);
    }

    /** The states {@code op} may lead to. */
    public static Set<JobState> targets(Operation op) {
        return TARGETS.get(op);
    }

    public static boolean allowed(Operation op, JobState from, JobState to) {
        return SOURCES.get(op).contains(from) && TARGETS.get(op).contains(to);
    }

    /** The wire names of {@link #sources(Operation)}, for a SQL {@code state = ANY(?)} guard. */
    public static String[] sourceNames(Operation op) {
        return SOURCES.get(op).stream().map(JobState::wire).toArray(String[]::new);
    }

    /**
     * Refuses {@code op} on a job in state {@code current} with a 409 that names both; returns normally when the
     * operation may start from that state.
     */
    public static void check(Operation op, JobState current, String jobId) {
        if (!SOURCES.get(op).contains(current)) {
            throw OjsException.conflict(describe(op, current), jobId, current);
        }
    }

    private static String describe(Operation op, JobState current) {
        return switch (op) {
            case ACK -> "Cannot acknowledge job not in 'active' state. Current state: '" + current.wire() + "'.";
            case FAIL -> "Cannot fail job not in 'active' state. Current state: '" + current.wire() + "'.";
            case HEARTBEAT -> "Cannot extend the lease of a job in state '" + current.wire() + "'.";
            case SNOOZE -> "Cannot snooze job not in 'active' state. Current state: '" + current.wire() + "'.";
            case CANCEL -> "Cannot cancel job in terminal state '" + current.wire() + "'.";
            case ACTIVATE -> "Cannot activate job in state '" + current.wire()
                    + "'. Only jobs in 'pending' state can be activated.";
            case RETRY_DEAD_LETTER -> "Only discarded jobs can be retried from the dead letter queue; job is '"
                    + current.wire() + "'.";
            case RETRY_NOW, REVIVE -> "Only scheduled, retryable, discarded or cancelled jobs can be retried; job is '"
                    + current.wire() + "'.";
            default -> "Operation " + op + " is not allowed in state '" + current.wire() + "'.";
        };
    }
}
