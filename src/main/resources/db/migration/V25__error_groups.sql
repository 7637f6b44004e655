-- Error groups: failures grouped by error type and normalised message (domain.errors.ErrorGroupKey), kept up to date
-- by the statement that records a failure (store.JobSql.RECORD_FAILURES), so the console and the admin API read a
-- few small rows instead of scanning the jobs.
--
-- error_group on a job: the fingerprint of its current error's group, set with the error by a failed attempt and
-- cleared with it (ACK, a new run). NULL for every job that never failed, so the two partial indexes below hold only
-- failed jobs: a PUSH, FETCH or ACK of a job that never failed never writes them; a job that failed writes the live
-- one on each of its later state changes until it finishes, and the history one once, when it moves there.
ALTER TABLE jobs ADD COLUMN error_group bigint;
ALTER TABLE job_history ADD COLUMN error_group bigint;

-- A group's jobs in keyset pages (error_group, id), live and finished (all_jobs merges the two); state and
-- dead_letter ride along so that counting a group's jobs by state (what each action would touch) and choosing an
-- action's batch read the index only.
CREATE INDEX jobs_error_group_idx ON jobs (error_group, id) INCLUDE (state, dead_letter)
    WHERE error_group IS NOT NULL;
CREATE INDEX job_history_error_group_idx ON job_history (error_group, id) INCLUDE (state, dead_letter)
    WHERE error_group IS NOT NULL;

-- One row per group: what the list page shows. failures counts failed attempts (not jobs); queues and types keep the
-- first 20 distinct names seen. No index beyond the key: the table holds one row per distinct cause, and an
-- update that changes no indexed column stays HOT (fillfactor leaves it room).
CREATE TABLE error_groups (
    id         bigint PRIMARY KEY,
    error_type text NOT NULL,
    message    text NOT NULL,
    failures   bigint NOT NULL CHECK (failures > 0),
    first_seen timestamptz NOT NULL,
    last_seen  timestamptz NOT NULL,
    queues     text[] NOT NULL,
    types      text[] NOT NULL
) WITH (fillfactor = 50);

-- Failed attempts per group and UTC hour, for the sparkline; the pruner drops hours past the window it shows.
CREATE TABLE error_group_hours (
    group_id bigint NOT NULL,
    hour     timestamptz NOT NULL,
    failures bigint NOT NULL CHECK (failures > 0),
    PRIMARY KEY (group_id, hour)
) WITH (fillfactor = 50);

-- all_jobs gains the column (V23's rebuild_all_jobs: the view from the live table's own column list).
SELECT rebuild_all_jobs();
