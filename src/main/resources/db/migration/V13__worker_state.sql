-- What a worker says about itself in its heartbeats (ojs-graceful-shutdown.md 5): running, quiet (no more
-- fetching), drain (finishing its active jobs) or terminate (stopping). A worker that is not running gets no new
-- jobs. Separate from `directive`, which is what an operator asks of the worker.
ALTER TABLE workers ADD COLUMN state text NOT NULL DEFAULT 'running'
    CHECK (state IN ('running', 'quiet', 'drain', 'terminate'));
ALTER TABLE workers ADD COLUMN state_at timestamptz;
