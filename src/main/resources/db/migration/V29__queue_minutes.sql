-- The console's per-queue throughput and latency (the queues page's sparklines): finished jobs per queue and
-- minute, rolled up from job_history once a minute has settled (stats.QueueMinuteRollup), so a page reads at most
-- an hour of small rows however many jobs finished, and each finished job is read once, in the background.

-- One row per queue and minute with a finish: jobs finished (completed or failed for good), how many of them had
-- started, and their summed wait from becoming available to their last start (enqueued_at to started_at).
CREATE TABLE queue_minutes (
    minute   timestamptz NOT NULL CHECK (date_trunc('minute', minute) = minute),
    queue    text        NOT NULL,
    finished bigint      NOT NULL CHECK (finished > 0),
    waited   bigint      NOT NULL CHECK (waited >= 0 AND waited <= finished),
    wait_ms  bigint      NOT NULL CHECK (wait_ms >= 0),
    PRIMARY KEY (minute, queue)
);

-- How far the roll-up has gone: every minute before `through` is in queue_minutes (minutes without a finish have no
-- row). One row.
CREATE TABLE queue_minute_rollup (
    id      int         PRIMARY KEY CHECK (id = 1),
    through timestamptz NOT NULL
);
