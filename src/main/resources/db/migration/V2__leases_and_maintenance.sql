-- When the lease was last granted or extended (fetch or heartbeat): the last sign of life of the worker.
-- A crashed worker's retry backoff is measured from here, since its attempt failed no earlier than this.
ALTER TABLE jobs ADD COLUMN lease_renewed_at timestamptz;

-- The promoter: due scheduled and retryable jobs, oldest first.
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE state IN ('scheduled', 'retryable');

-- Dead-letter filters by queue and type stay index scans.
CREATE INDEX jobs_dead_letter_queue_idx ON jobs (queue, discarded_at DESC, id DESC) WHERE dead_letter;

-- Workers: the jobs they last reported and whether their directive came from an operator.
ALTER TABLE workers ADD COLUMN active_jobs integer NOT NULL DEFAULT 0 CHECK (active_jobs >= 0);
ALTER TABLE workers ADD COLUMN directive_set_at timestamptz;
