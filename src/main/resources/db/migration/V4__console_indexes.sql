-- Indexes for the operator console, each measured on 1,000,000 seeded jobs (scripts/seed-jobs.sql; README "Console").
-- The job listings are keyset-paginated on (created_at, id), so every filter the console offers has an index that
-- yields rows already in that order: a page is an index range scan that stops after 51 rows however deep it is.

-- Unfiltered listing, newest or oldest first: 820 ms (sort of the whole table) -> 11 ms.
CREATE INDEX jobs_created_idx ON jobs (created_at, id);

-- Filter by state (e.g. the rare 'pending'): 324 ms -> 11 ms.
CREATE INDEX jobs_state_created_idx ON jobs (state, created_at, id);

-- Filter by queue (alone, or with type or state as a further filter): 306 ms -> 11 ms.
CREATE INDEX jobs_queue_created_idx ON jobs (queue, created_at, id);

-- Filter by type, exact or prefix ('email.*'): 463 ms -> 9 ms.
CREATE INDEX jobs_type_created_idx ON jobs (type, created_at, id);

-- Filter by tag: 488 ms -> 12 ms.
CREATE INDEX jobs_tags_idx ON jobs USING gin (tags);

-- Depth by state per queue: one index-only scan of this small index instead of the table, 630 ms -> 170 ms.
CREATE INDEX jobs_queue_state_idx ON jobs (queue, state);

-- Lag: the oldest available job of each queue is the first entry of its range (0.3 ms for all queues).
CREATE INDEX jobs_available_age_idx ON jobs (queue, run_at) WHERE state = 'available';

-- Finished jobs per minute: the state travels in the index, so the last hour is an index-only scan, 198 ms -> 55 ms.
-- Same key and predicate as before, so pruning uses it as it did.
DROP INDEX jobs_finished_idx;
CREATE INDEX jobs_finished_idx ON jobs (completed_at) INCLUDE (state)
    WHERE state IN ('completed', 'discarded', 'cancelled') AND NOT dead_letter;
