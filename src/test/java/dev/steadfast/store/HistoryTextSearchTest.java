package dev.steadfast.store;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.domain.JobState;
import dev.steadfast.store.maintenance.MaintenanceStore;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Text search across the live table, dead letters and several day partitions (one without any match) against one
 * plain statement over all_jobs, the reference: the same pages in both directions and sizes, under every filter the
 * console combines with it.
 */
@QuarkusTest
class HistoryTextSearchTest {

    @Inject
    JobStore jobs;

    @Inject
    JobQueryStore query;

    @Inject
    MaintenanceStore maintenance;

    @Inject
    Pool pool;

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void everyPageEqualsTheOneStatementOverAllJobsWithAndWithoutTheCap() {
        Instant today = LocalDate.now(ZoneOffset.UTC).atStartOfDay().toInstant(ZoneOffset.UTC);
        maintenance.preparePartitions(today.minus(Duration.ofDays(3)), 3).await().indefinitely();
        for (int day = 3; day >= 0; day--) {
            Instant at = today.minus(Duration.ofDays(day)).plus(Duration.ofHours(1));
            for (int i = 0; i < 4; i++) {
                // day 1 has none: a partition without a match between partitions with them
                finished(day == 1 ? "haystack" : "needle-" + day + "-" + i, at.plusSeconds(i));
            }
        }
        for (int i = 0; i < 3; i++) {
            enqueue(obj("type", "s.t", "args", arr("needle live " + i), "options", obj("queue", "s-live")));
        }
        String dead = dev.steadfast.testsupport.JobsInState.deadLetter("s-dead", "s.t", "E", "a needle in its error");

        for (int round = 0; round < 2; round++) { // the second round past the statement cache's switch to generic plans
            for (boolean ascending : new boolean[] {false, true}) {
                for (int size : new int[] {3, 5, 100}) {
                    assertEquals(reference("needle", ascending), pages("needle", null, ascending, size),
                            (ascending ? "oldest" : "newest") + " first, pages of " + size);
                }
            }
            assertEquals(List.of(), pages("nowhere", null, false, 5));
            assertEquals(reference("needle-2", false), pages("needle-2", null, false, 2));
            assertEquals(List.of(dead), pages("needle", JobState.DISCARDED, false, 5));
            assertEquals(reference("needle live", false), pages("needle", JobState.AVAILABLE, false, 2));
        }
    }

    private void finished(String text, Instant at) {
        String id = enqueue(obj("type", "s.t", "args", arr(text), "options", obj("queue", "s-h")));
        assertEquals(id, fetchOne("w", "s-h"));
        assertEquals(1, jobs.complete(List.of(new Completion(UUID.fromString(id), null, null)), at)
                .await().indefinitely().size());
        // created a minute before it finished, as a real job of that day would be
        pool.preparedQuery("UPDATE job_history SET created_at = $2 WHERE id = $1")
                .execute(Tuple.of(UUID.fromString(id), at.minusSeconds(60).atOffset(ZoneOffset.UTC)))
                .await().indefinitely();
    }

    private List<String> pages(String text, JobState state, boolean ascending, int size) {
        JobFilter f = new JobFilter(state, null, null, false, null, null, null, text);
        List<String> out = new ArrayList<>();
        Instant afterAt = null;
        UUID afterId = null;
        while (true) {
            List<JobSummary> page = query.list(f, ascending, afterAt, afterId, size).await().indefinitely();
            page.forEach(j -> out.add(j.id().toString()));
            if (page.size() < size) {
                return out;
            }
            afterAt = page.get(page.size() - 1).createdAt();
            afterId = page.get(page.size() - 1).id();
        }
    }

    private List<String> reference(String text, boolean ascending) {
        String dir = ascending ? "ASC" : "DESC";
        List<String> out = new ArrayList<>();
        for (Row r : pool.preparedQuery("SELECT id FROM all_jobs WHERE job_search_text(args, meta, errors) ILIKE $1"
                        + " ORDER BY created_at " + dir + ", id " + dir)
                .execute(Tuple.of("%" + text + "%")).await().indefinitely()) {
            out.add(r.getUUID("id").toString());
        }
        return out;
    }
}
