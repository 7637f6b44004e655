package dev.steadfast.errorgroups;

import dev.steadfast.audit.AuditLog;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.http.Params;
import dev.steadfast.maintenance.Batches;
import dev.steadfast.store.JobSummary;
import dev.steadfast.store.errorgroups.ErrorGroupRow;
import dev.steadfast.store.errorgroups.ErrorGroupStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Error groups for the console and the admin API: the groups with their last 24 hours of failures, one group with
 * its jobs and what each action would touch, and the actions on a whole group. An action loops over bounded
 * batches until one comes back short, through the transitions of {@link JobStateMachine}:
 * <ul>
 *   <li>retry: retryable jobs run now (RETRY_NOW), dead letters start a new run (RETRY_DEAD_LETTER), other
 *       discarded jobs too (REVIVE);</li>
 *   <li>discard: retryable jobs are discarded without their next attempt (DISCARD; workflow steps are left to their
 *       workflow);</li>
 *   <li>delete: the group's discarded jobs (dead letters included) and retryable ones are deleted; once it carries
 *       no job, the group itself is forgotten.</li>
 * </ul>
 * The group's counts are failed attempts as they were recorded; its jobs are those whose current error is in the
 * group (a job that later completed, or failed differently, has left it).
 */
@ApplicationScoped
public class ErrorGroupService {

    /** The sparkline's buckets: one per UTC hour, the current one last. */
    public static final int HOURS = 24;
    static final int BATCH = 1000;

    private final ErrorGroupStore store;
    private final Clock clock;

    @Inject // a field: the audit note is an addition every bulk service shares, outside its constructor
    AuditLog audit;

    public ErrorGroupService(ErrorGroupStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** A group with its failures per hour over the last {@link #HOURS} hours (oldest first, from {@code from}). */
    public record Group(ErrorGroupRow row, Instant from, List<Long> hourly) {

        public String id() {
            return ErrorGroupIds.format(row.id());
        }
    }

    /** A page of groups; {@code next} is the cursor of the next page, null on the last. */
    public record Groups(List<Group> groups, String next) {
    }

    /** What each action on a group would touch, from its jobs' states. */
    public record Counts(long retryable, long deadLetters, long discarded, long other) {

        public long retry() {
            return retryable + deadLetters + discarded;
        }

        public long discard() {
            return retryable;
        }

        public long delete() {
            return retryable + deadLetters + discarded;
        }

        public long jobs() {
            return retryable + deadLetters + discarded + other;
        }

        static Counts of(Map<String, Long> byState) {
            long retryable = byState.getOrDefault("retryable", 0L);
            long dead = byState.getOrDefault("dead_letter", 0L);
            long discarded = byState.getOrDefault("discarded", 0L);
            long all = byState.values().stream().mapToLong(Long::longValue).sum();
            return new Counts(retryable, dead, discarded, all - retryable - dead - discarded);
        }
    }

    /** One group, its counts and a page of its jobs; {@code next} is the id to pass as the next page's cursor. */
    public record Detail(Group group, Counts counts, List<JobSummary> jobs, String next) {
    }

    /** The outcome of an action on a group: how many jobs it was about, and how many it changed. */
    public record Outcome(String action, long matched, long succeeded) {
    }

    /** An action on a whole group. */
    public enum Action {
        RETRY, DISCARD, DELETE;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        public long count(Counts c) {
            return switch (this) {
                case RETRY -> c.retry();
                case DISCARD -> c.discard();
                case DELETE -> c.delete();
            };
        }

        public static Action parse(String s) {
            for (Action a : values()) {
                if (a.wire().equals(s)) {
                    return a;
                }
            }
            throw OjsException.invalidField("action", "The action is retry, discard or delete.",
                    "retry|discard|delete", s);
        }
    }

    public Uni<Groups> list(int limit, String cursor) {
        Optional<ErrorGroupIds.Cursor> after = ErrorGroupIds.decodeCursor(cursor);
        Instant now = clock.instant();
        return store.list(limit + 1, after.map(ErrorGroupIds.Cursor::lastSeen).orElse(null),
                after.map(ErrorGroupIds.Cursor::id).orElse(null)).flatMap(rows -> {
            boolean more = rows.size() > limit;
            List<ErrorGroupRow> page = more ? rows.subList(0, limit) : rows;
            String next = more ? ErrorGroupIds.encodeCursor(page.get(page.size() - 1)) : null;
            return withHours(page, now).map(groups -> new Groups(groups, next));
        });
    }

    public Uni<Detail> get(String id, String before, int limit) {
        long group = ErrorGroupIds.parse(id);
        UUID beforeId = before == null || before.isBlank() ? null : Params.uuid(before)
                .orElseThrow(() -> OjsException.invalidField("cursor", "The cursor is not one this server handed out."));
        Instant now = clock.instant();
        return found(group, id).flatMap(row -> withHours(List.of(row), now).flatMap(g -> store.countByState(group)
                .flatMap(byState -> store.jobs(group, beforeId, limit + 1).map(jobs -> {
                    boolean more = jobs.size() > limit;
                    List<JobSummary> page = more ? jobs.subList(0, limit) : jobs;
                    return new Detail(g.get(0), Counts.of(byState), page,
                            more ? page.get(page.size() - 1).id().toString() : null);
                }))));
    }

    /** How many jobs {@code action} would touch now (the confirmation's count). */
    public Uni<Long> count(String id, Action action) {
        long group = ErrorGroupIds.parse(id);
        return found(group, id).flatMap(row -> store.countByState(group)).map(m -> action.count(Counts.of(m)));
    }

    /** Runs {@code action} on every job of the group it applies to. */
    public Uni<Outcome> act(String id, Action action) {
        long group = ErrorGroupIds.parse(id);
        Instant now = OperationTime.of(clock);
        return found(group, id).flatMap(row -> store.countByState(group)).map(Counts::of).flatMap(c -> {
            long matched = action.count(c);
            Uni<Integer> done = switch (action) {
                case RETRY -> retry(group, now);
                case DISCARD -> Batches.untilShort(() -> store.discardBatch(group,
                        JobStateMachine.sourceNames(Operation.DISCARD), now, BATCH), BATCH);
                case DELETE -> Batches.untilShort(() -> store.deleteBatch(group, BATCH), BATCH)
                        .call(n -> store.countByState(group).flatMap(left -> left.isEmpty()
                                ? store.forget(group) : Uni.createFrom().voidItem()));
            };
            return done.map(n -> new Outcome(action.wire(), matched, n)).invoke(o -> audit.noteJobs(o.succeeded()));
        });
    }

    private Uni<Integer> retry(long group, Instant now) {
        return Batches.untilShort(() -> store.retryNowBatch(group, JobStateMachine.sourceNames(Operation.RETRY_NOW),
                        now, BATCH), BATCH)
                .flatMap(a -> Batches.untilShort(() -> store.newRunsBatch(group, true,
                        JobStateMachine.sourceNames(Operation.RETRY_DEAD_LETTER), now, BATCH), BATCH).map(b -> a + b))
                .flatMap(ab -> Batches.untilShort(() -> store.newRunsBatch(group, false,
                        JobStateMachine.sourceNames(Operation.REVIVE), now, BATCH), BATCH).map(c -> ab + c));
    }

    private Uni<ErrorGroupRow> found(long group, String id) {
        return store.find(group).map(o -> o.orElseThrow(() -> OjsException.notFound("error_group", id)));
    }

    private Uni<List<Group>> withHours(List<ErrorGroupRow> rows, Instant now) {
        Instant from = now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(HOURS - 1));
        return store.hours(rows.stream().map(ErrorGroupRow::id).toList(), from).map(hours -> {
            List<Group> out = new ArrayList<>(rows.size());
            for (ErrorGroupRow r : rows) {
                Map<Instant, Long> h = hours.getOrDefault(r.id(), Map.of());
                List<Long> buckets = new ArrayList<>(HOURS);
                for (int i = 0; i < HOURS; i++) {
                    buckets.add(h.getOrDefault(from.plus(Duration.ofHours(i)), 0L));
                }
                out.add(new Group(r, from, buckets));
            }
            return out;
        });
    }
}
