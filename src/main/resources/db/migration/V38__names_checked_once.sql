-- A job's type and queue are checked once, by the server (domain.JobRules, the only way a job is created), not again
-- by a regular expression on every row version PostgreSQL writes.
--
-- The CHECK constraints of V1 ran both patterns on every insert and on every update of a job (PostgreSQL evaluates a
-- table's CHECK constraints on each new row version, whatever columns changed): a PUSH, each claim, each FAIL, the
-- promoter and the move into history, five to seven times in a job's life. An INSERT of 1,000 jobs took 0.3 ms less
-- without them (5.5-5.6 ms against 5.2-5.3 ms, the median of 12 runs each, docs/performance). The
-- patterns repeated JobRules' by hand and nothing tested that the two agreed. On the live table the length bounds
-- stay (cheap, and they keep every index key far below PostgreSQL's limit), NOT VALID because every row there passed
-- the stricter patterns (no scan of a backlog while the table is locked). The history gets its rows only from the live
-- table, so it keeps no bound of its own (adding one would scan every partition under lock).
ALTER TABLE jobs DROP CONSTRAINT jobs_type_check, DROP CONSTRAINT jobs_queue_check;
ALTER TABLE jobs ADD CONSTRAINT jobs_type_check CHECK (length(type) <= 255) NOT VALID,
                 ADD CONSTRAINT jobs_queue_check CHECK (length(queue) <= 128) NOT VALID;
ALTER TABLE job_history DROP CONSTRAINT jobs_type_check, DROP CONSTRAINT jobs_queue_check;
