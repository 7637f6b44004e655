-- A PUSH announces its queues on steadfast_jobs in its own statement (store.JobSql: one pg_notify per distinct queue
-- of the available jobs it inserts, from the arrays it inserts), as the promoter, cron and workflows already did; so
-- does the revival of finished jobs (store.HistorySql.START_NEW_RUNS). The AFTER INSERT trigger of V5 did it from a
-- transition table, which PostgreSQL fills with every inserted row whole for each statement: an INSERT of 1,000 jobs
-- took 9.27 ms with the trigger and 8.60 ms notifying in the statement (medians of 30 alternating runs in psql on a
-- quiet 2-core machine, docs/performance/2026-11-30-live-columns-by-change.md).
--
-- Safe beside the previous version: a job pushed through an old instance is no longer announced, so a long-polling
-- FETCH on a new instance finds it at its next poll (steadfast.fetch.poll-interval) instead of at once; nothing is
-- lost. Rows inserted by hand (a seed, a script) are not announced either.
DROP TRIGGER jobs_notify_inserted ON jobs;
DROP FUNCTION steadfast_notify_inserted();
