-- Heartbeats become HOT updates. The lease reaper found expired leases through jobs_lease_idx, on lease_expires_at,
-- which every heartbeat moves: each heartbeat wrote a new row version with new entries in every index of the live
-- table (0 of 1,000 heartbeat updates were HOT, pg_stat_user_tables). Now the reaper reads lease_check_at, the time it
-- must next look at the job: set by the claim to the lease's end, and moved to the lease's current end by the reaper
-- itself when it finds the lease extended (once a lease period for a job that heartbeats, instead of once a heartbeat).
-- A heartbeat changes only lease_expires_at and lease_renewed_at, which no index reads, so it can be HOT.
--
-- job_history gets the column too (always NULL there), so the two tables keep the same columns by name.
-- jobs_lease_unchecked_idx holds active jobs without a check time: rows claimed by an instance of the previous
-- version during a rolling upgrade (and rows written by hand); the reaper reads it too, so none is left unreaped.
-- Empty otherwise: a claim's row has a check time, and other states are outside its predicate.
--
-- Safe side by side with the previous version: the old instances' reapers read lease_expires_at without an index
-- (a scan of the live table per reap: stop them soon); their claims leave lease_check_at NULL, which the new reapers
-- handle through jobs_lease_unchecked_idx.
ALTER TABLE jobs ADD COLUMN lease_check_at timestamptz;
ALTER TABLE job_history ADD COLUMN lease_check_at timestamptz;
UPDATE jobs SET lease_check_at = lease_expires_at WHERE state = 'active';
CREATE INDEX jobs_lease_check_idx ON jobs (lease_check_at) WHERE state = 'active';
CREATE INDEX jobs_lease_unchecked_idx ON jobs (id) WHERE state = 'active' AND lease_check_at IS NULL;
DROP INDEX jobs_lease_idx;
