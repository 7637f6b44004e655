package dev.steadfast.store.queues;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchIds;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.domain.limits.PartitionState;
import dev.steadfast.domain.limits.RateLimitPolicy;
import dev.steadfast.domain.limits.RateLimitPolicy.Window;
import dev.steadfast.domain.limits.RateLimitRule;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.TestClock;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The database decides what {@link RateLimitRule} decides. For a seeded set of cases (a policy, what the partition
 * remembers, jobs of the key already active, jobs waiting, the count a FETCH asks for, the instant) the keyed claim
 * (RateLimitStore.claim, JobSql.CLAIM_KEYED) must start exactly as many jobs as the rule allows, and leave in
 * rate_limits exactly the partition the rule computes after them.
 */
@QuarkusTest
class RateLimitStoreTest {

    @Inject
    TestClock clock;

    @Inject
    RateLimitStore store;

    @Inject
    Pool pool;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    static final List<RateLimitPolicy> POLICIES = List.of(
            new RateLimitPolicy("c", 2, null, null),
            new RateLimitPolicy("c", 0, null, null),
            new RateLimitPolicy("c", null, new Window(3, Duration.ofMinutes(1)), null),
            new RateLimitPolicy("c", null, new Window(1, Duration.ofSeconds(1)), null),
            new RateLimitPolicy("c", null, null, new Window(1, Duration.ofSeconds(10))),
            new RateLimitPolicy("c", null, null, new Window(4, Duration.ofSeconds(1))),
            new RateLimitPolicy("c", 3, new Window(5, Duration.ofMinutes(1)), null),
            new RateLimitPolicy("c", 3, new Window(5, Duration.ofMinutes(1)), new Window(2, Duration.ofSeconds(1))),
            new RateLimitPolicy("c", null, new Window(0, Duration.ofSeconds(1)), null));

    @Test
    void theClaimStartsWhatTheRuleAllowsAndRemembersWhatTheRuleComputes() {
        Random random = new Random(18);
        for (int i = 0; i < 60; i++) {
            RateLimitPolicy shape = POLICIES.get(i < POLICIES.size() ? i : random.nextInt(POLICIES.size()));
            RateLimitPolicy p = new RateLimitPolicy("case-" + i, shape.concurrency(), shape.rate(), shape.throttle());
            String queue = "rl-case-" + i;
            int active = random.nextInt(4);
            int waiting = random.nextInt(6);
            int count = 1 + random.nextInt(8);
            for (int a = 0; a < active; a++) {
                enqueue(obj("type", "t.case", "args", arr(), "options",
                        obj("queue", queue, "rate_limit", obj("key", p.key()))));
            }
            if (active > 0) {
                assertEquals(active, fetchIds("w-setup", active, queue).size(), "case " + i + ": setup");
            }
            for (int w = 0; w < waiting; w++) {
                enqueue(obj("type", "t.case", "args", arr(), "options",
                        obj("queue", queue, "rate_limit", wire(p))));
            }
            Instant now = clock.instant().plusSeconds(1).truncatedTo(ChronoUnit.MICROS);
            store.record(List.of(p), now).await().indefinitely(); // the key's row, even when no PUSH named it
            PartitionState before = remembered(p, now, random);
            write(p.key(), before);

            RateLimitOutcomes out = new RateLimitOutcomes();
            int started = store.claim(List.of(queue), count, "w-case", 3_600_000L, now, out, List.of())
                    .await().indefinitely().size();

            int allowed = Math.min(waiting, RateLimitRule.allowance(p, before, active, now, count));
            String what = "case " + i + ": " + p + ", " + before + ", active " + active + ", waiting " + waiting
                    + ", count " + count;
            assertEquals(allowed, started, what);
            assertEquals(RateLimitRule.after(p, before, now, started), read(p.key()), what);
            // the key is reported held exactly when it had waiting jobs and the rule allowed none of them
            boolean held = waiting > 0 && RateLimitRule.allowance(p, before, active, now, count) == 0;
            assertEquals(held ? List.of(RateLimitRule.hold(p, before, active, now)) : List.of(),
                    out.held().stream().map(RateLimitOutcomes.Held::hold).toList(), what);
            assertEquals(started > 0, out.started().containsKey(p.key()), what);
        }
    }

    /** A partition memory the policy could have: recent and old starts, a recent or old last start. */
    private static PartitionState remembered(RateLimitPolicy p, Instant now, Random random) {
        List<Instant> starts = new ArrayList<>();
        if (p.rate() != null) {
            int n = random.nextInt(p.rate().limit() + 1);
            long span = p.rate().period().toMillis() * 2;
            for (int k = 0; k < n; k++) {
                starts.add(now.minusMillis(random.nextLong(span)).truncatedTo(ChronoUnit.MICROS));
            }
            starts.sort(null);
        }
        Instant last = null;
        if (random.nextBoolean()) {
            Duration gap = p.throttle() == null ? Duration.ofSeconds(1) : p.throttle().period();
            last = now.minusMillis(random.nextLong(gap.toMillis() * 2 + 1)).truncatedTo(ChronoUnit.MICROS);
        }
        if (!starts.isEmpty() && (last == null || last.isBefore(starts.get(starts.size() - 1)))) {
            last = starts.get(starts.size() - 1);
        }
        return new PartitionState(starts, last);
    }

    private static Map<String, Object> wire(RateLimitPolicy p) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("key", p.key());
        if (p.concurrency() != null) {
            m.put("concurrency", p.concurrency());
        }
        if (p.rate() != null) {
            m.put("rate", obj("limit", p.rate().limit(), "period", p.rate().period().toString()));
        }
        if (p.throttle() != null) {
            m.put("throttle", obj("limit", p.throttle().limit(), "period", p.throttle().period().toString()));
        }
        return m;
    }

    private void write(String key, PartitionState s) {
        pool.preparedQuery("UPDATE rate_limits SET starts = $2, last_started_at = $3 WHERE key = $1")
                .execute(Tuple.of(key, s.starts().stream().map(JobStore::odt).toArray(OffsetDateTime[]::new),
                        JobStore.odt(s.lastStart()))).await().indefinitely();
    }

    private PartitionState read(String key) {
        Row r = pool.preparedQuery("SELECT starts, last_started_at FROM rate_limits WHERE key = $1")
                .execute(Tuple.of(key)).await().indefinitely().iterator().next();
        List<Instant> starts = new ArrayList<>();
        for (OffsetDateTime o : r.getArrayOfOffsetDateTimes("starts")) {
            starts.add(o.toInstant());
        }
        return new PartitionState(starts, JobRows.instant(r, "last_started_at"));
    }
}
