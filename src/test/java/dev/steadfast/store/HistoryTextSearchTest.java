package dev.steadfast.store;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobState;
import dev.steadfast.model.BulkScope;
import dev.steadfast.model.Completion;
import dev.steadfast.model.JobFilter;
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

    @Inject
    JobBulkStore bulk;

    @Inject
    dev.steadfast.maintenance.SearchIndexer indexer;

    @Inject
    io.quarkus.scheduler.Scheduler scheduler;

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

    /**
     * Each part read in order for only a few rows before the rest is taken through the search's index (trigrams, the
     * types behind a prefix, tags): the pages still equal the plain statement's, whichever side of the split a match
     * is on, in both directions and for a page that ends right at the split.
     */
    /**
     * The (rows read in order per part, page size) pairs paged through with the closed days' search indexes dropped:
     * every read limit and every page size at least twice, each small limit with a page smaller and one larger than
     * it, and the plain paging (1,000 rows) with pages of 1 and 3: a read limit below, equal to and above the page
     * size. The whole cross product (12 pairs, and 6 with the indexes) took 30 s of the suite on a 2-core machine
     * (2026-11-30), most of it in pages of one row.
     */
    private static final int[][] UNINDEXED_READS = {{1, 1}, {1, 100}, {2, 3}, {2, 1}, {4, 3}, {4, 100}, {1000, 1},
            {1000, 3}};

    /** With the closed days indexed: the limit of one row against pages of 1 and 100, and the plain paging. */
    private static final int[][] INDEXED_READS = {{1, 1}, {1, 100}, {1000, 3}};

    @Test
    void aPartReadOnlyAFewRowsInOrderStillGivesEveryMatchInOrder() {
        Instant today = LocalDate.now(ZoneOffset.UTC).atStartOfDay().toInstant(ZoneOffset.UTC);
        maintenance.preparePartitions(today.minus(Duration.ofDays(2)), 2).await().indefinitely();
        for (int day = 2; day >= 0; day--) {
            Instant at = today.minus(Duration.ofDays(day)).plus(Duration.ofHours(2));
            for (int i = 0; i < 6; i++) {
                // the newest rows of each day are a run without the term, as a burst of another type would be
                boolean match = i < 3;
                finished(match ? "s.t" : "x.noop", match ? "needle-" + day + "-" + i : "hay", match ? "vip" : "bulk",
                        at.plusSeconds(i));
            }
        }
        for (int i = 0; i < 4; i++) {
            enqueue(obj("type", i < 2 ? "s.u" : "x.noop", "args", arr(i < 2 ? "needle live" : "hay"),
                    "options", obj("queue", "s-live", "tags", arr(i < 2 ? "vip" : "bulk"))));
        }
        List<JobFilter> filters = List.of(
                new JobFilter(null, null, null, false, null, null, null, "needle"),
                new JobFilter(null, null, "s.", true, null, null, null, null),
                new JobFilter(null, null, null, false, "vip", null, null, null),
                new JobFilter(null, null, "s.", true, "vip", null, null, "needle"),
                new JobFilter(JobState.COMPLETED, null, "s.", true, null, null, null, null),
                new JobFilter(null, "s-h", null, false, null, null, null, "needle"),
                // filters only: a closed day reads them through its own indexes, today's partition in order
                new JobFilter(null, "s-h", null, false, null, null, null, null),
                new JobFilter(JobState.COMPLETED, null, null, false, null, null, null, null),
                new JobFilter(null, null, "s.t", false, null, null, null, null),
                new JobFilter(JobState.COMPLETED, "s-h", "s.t", false, "vip", null, null, null));
        List<String> sql = List.of("job_search_text(args, meta, errors) ILIKE '%needle%'", "type LIKE 's.%'",
                "tags @> ARRAY['vip']", "type LIKE 's.%' AND tags @> ARRAY['vip'] AND job_search_text(args, meta,"
                        + " errors) ILIKE '%needle%'", "state = 'completed' AND type LIKE 's.%'",
                "queue = 's-h' AND job_search_text(args, meta, errors) ILIKE '%needle%'", "queue = 's-h'",
                "state = 'completed'", "type = 's.t'",
                "state = 'completed' AND queue = 's-h' AND type = 's.t' AND tags @> ARRAY['vip']");
        for (boolean closedDaysIndexed : new boolean[] {false, true}) {
            if (closedDaysIndexed) {
                indexClosedDays();
            } else {
                dropSearchIndexes();
            }
            for (int c = 0; c < filters.size(); c++) {
                for (boolean ascending : new boolean[] {false, true}) {
                    List<String> expected = referenceWhere(sql.get(c), ascending);
                    assertTrue(expected.size() >= 9, sql.get(c) + " matches " + expected.size());
                    for (int[] pair : closedDaysIndexed ? INDEXED_READS : UNINDEXED_READS) {
                        int scanRows = pair[0];
                        int size = pair[1];
                        assertEquals(expected, pages(filters.get(c), ascending, size, scanRows),
                                sql.get(c) + ", " + (ascending ? "oldest" : "newest") + " first, pages of " + size
                                        + ", " + scanRows + " rows read in order, closed days indexed: "
                                        + closedDaysIndexed);
                    }
                }
            }
        }
        // the parts without a search index were read a few rows at a time, and the pages went on from where they stopped
        assertTrue(stops > 0, "no page stopped short");
    }

    /**
     * A text search over parts without a search index reads at most that many rows of each per page, and says where it
     * stopped: the live table and today's partition are read in order, a closed day through the index the indexer
     * built on it; paging on from where a page stopped finds the match beyond.
     */
    @Test
    void aSearchStopsWhereItStoppedReadingAndGoesOnFromThere() {
        Instant today = LocalDate.now(ZoneOffset.UTC).atStartOfDay().toInstant(ZoneOffset.UTC);
        maintenance.preparePartitions(today.minus(Duration.ofDays(1)), 1).await().indefinitely();
        Instant yesterday = today.minus(Duration.ofHours(12));
        finished("rare-yesterday", yesterday);
        finished("rare-today", today.plus(Duration.ofMinutes(1)));
        for (int i = 0; i < 5; i++) {
            finished("hay-" + i, today.plus(Duration.ofMinutes(2 + i)));
        }
        indexClosedDays();
        JobFilter rare = new JobFilter(null, null, null, false, null, null, null, "rare-");
        JobQueryStore.Listing first = query.list(rare, false, null, null, 10, 3).await().indefinitely();
        // today's match is the sixth newest row of a partition read three at a time; yesterday's is older still
        assertTrue(first.reach() != null, "the search stopped short of today's older rows");
        assertTrue(first.jobs().isEmpty(), "yesterday's match is beyond where the search stopped: " + first.jobs());
        List<String> all = pages(rare, false, 10, 3);
        assertEquals(reference("rare-", false), all);
        assertEquals(2, all.size());
    }

    /**
     * A bulk action's confirmation counts a text or args search part by part: closed days through their search index,
     * the live table and today's partition by reading them (at most JobBulkStore.COUNT_READ_CAP rows each), with the
     * same total as one plain statement over every table.
     */
    @Test
    void aConfirmationCountOfATextSearchCountsEveryPartWithOrWithoutItsIndex() {
        Instant today = LocalDate.now(ZoneOffset.UTC).atStartOfDay().toInstant(ZoneOffset.UTC);
        maintenance.preparePartitions(today.minus(Duration.ofDays(1)), 1).await().indefinitely();
        finished("count-me yesterday", today.minus(Duration.ofHours(3)));
        finished("count-me today", today.plus(Duration.ofMinutes(3)));
        finished("hay", today.plus(Duration.ofMinutes(4)));
        enqueue(obj("type", "s.t", "args", arr("count-me live"), "options", obj("queue", "s-live")));
        String[] live = {"available", "scheduled", "pending", "retryable"};
        String[] done = {"completed", "cancelled", "discarded"};
        for (boolean closedDaysIndexed : new boolean[] {false, true}) {
            if (closedDaysIndexed) {
                indexClosedDays();
            } else {
                dropSearchIndexes();
            }
            JobBulkStore.Matching m = bulk.count(BulkScope.of(new JobFilter(null, null, null, false, null,
                    null, null, "count-me")), live, done).await().indefinitely();
            assertEquals(3, m.jobs(), "closed days indexed: " + closedDaysIndexed);
            assertTrue(!m.atLeast());
            JobBulkStore.Matching args = bulk.count(BulkScope.of(new JobFilter(null, "s-h", null, false, null,
                    null, null, null, List.of(new JobFilter.ArgsEquals(List.of("x"), "1")))), live, done)
                    .await().indefinitely();
            assertEquals(0, args.jobs());
            // a queue filter: today's partition read in order, a closed day through its queue index
            JobBulkStore.Matching queue = bulk.count(BulkScope.of(new JobFilter(null, "s-h", null, false,
                    null, null, null, null)), live, done).await().indefinitely();
            assertEquals(3, queue.jobs(), "closed days indexed: " + closedDaysIndexed);
            assertTrue(!queue.atLeast());
        }
    }

    /** Builds every closed partition's search index (the indexer builds one per run; its schedule may build some too). */
    private void indexClosedDays() {
        while (indexer.runOnce().await().indefinitely().isPresent()) {
            // one partition per run
        }
    }

    /** Drops every day partition's search and filter indexes the indexer may have built meanwhile, under its pause. */
    private void dropSearchIndexes() {
        scheduler.pause(dev.steadfast.maintenance.SearchIndexer.IDENTITY);
        for (Row r : pool.query("SELECT indexrelid::regclass::text AS i FROM pg_index x JOIN pg_class c ON c.oid ="
                + " x.indexrelid WHERE c.relname ~ '^job_history_done_[0-9]{8}_(search|state_created|queue_created|type_created|tags)_idx$'")
                .execute().await()
                .indefinitely()) {
            pool.query("DROP INDEX IF EXISTS " + r.getString("i")).execute().await().indefinitely();
        }
    }

    @org.junit.jupiter.api.AfterEach
    void resumeIndexer() {
        scheduler.resume(dev.steadfast.maintenance.SearchIndexer.IDENTITY);
    }

    private void finished(String text, Instant at) {
        finished("s.t", text, null, at);
    }

    private void finished(String type, String text, String tag, Instant at) {
        String id = enqueue(obj("type", type, "args", arr(text), "options", tag == null ? obj("queue", "s-h")
                : obj("queue", "s-h", "tags", arr(tag))));
        assertEquals(id, fetchOne("w", "s-h"));
        // today's instants may still lie ahead in the first hours after midnight: the lease must outlast them
        pool.preparedQuery("UPDATE jobs SET lease_expires_at = $2 WHERE id = $1")
                .execute(Tuple.of(UUID.fromString(id), at.plusSeconds(60).atOffset(ZoneOffset.UTC)))
                .await().indefinitely();
        assertTrue(jobs.complete(List.of(new Completion(UUID.fromString(id), null, null)), at)
                .await().indefinitely().get(0) instanceof Completion.Done);
        // created a minute before it finished, as a real job of that day would be
        pool.preparedQuery("UPDATE job_history SET created_at = $2 WHERE id = $1")
                .execute(Tuple.of(UUID.fromString(id), at.minusSeconds(60).atOffset(ZoneOffset.UTC)))
                .await().indefinitely();
    }

    private List<String> pages(String text, JobState state, boolean ascending, int size) {
        return pages(new JobFilter(state, null, null, false, null, null, null, text), ascending, size,
                JobQueryStore.SCAN_ROWS);
    }

    /** Times a page stopped short of a part without a search index and the next one went on from there. */
    private int stops;

    private List<String> pages(JobFilter f, boolean ascending, int size, int scanRows) {
        List<String> out = new ArrayList<>();
        Instant afterAt = null;
        UUID afterId = null;
        while (true) {
            JobQueryStore.Listing l = query.list(f, ascending, afterAt, afterId, size, scanRows).await().indefinitely();
            List<JobSummary> page = l.jobs();
            page.forEach(j -> out.add(j.id().toString()));
            if (page.size() == size) {
                afterAt = page.get(page.size() - 1).createdAt();
                afterId = page.get(page.size() - 1).id();
            } else if (l.reach() != null) {
                stops++;
                afterAt = l.reach().at();
                afterId = l.reach().id();
            } else {
                return out;
            }
        }
    }

    private List<String> referenceWhere(String condition, boolean ascending) {
        String dir = ascending ? "ASC" : "DESC";
        List<String> out = new ArrayList<>();
        for (Row r : pool.query("SELECT id FROM all_jobs WHERE " + condition + " ORDER BY created_at " + dir + ", id "
                + dir).execute().await().indefinitely()) {
            out.add(r.getUUID("id").toString());
        }
        return out;
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
