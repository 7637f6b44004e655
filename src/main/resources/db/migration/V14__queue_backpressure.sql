-- Backpressure (ojs-backpressure.md): a queue may bound how many jobs wait in it. A PUSH that would take the queue
-- past max_depth is refused with 429 QUEUE_FULL; past warning_threshold x max_depth the answer carries
-- X-OJS-Queue-Pressure. NULL: unbounded (every queue until configured).
ALTER TABLE queues ADD COLUMN max_depth integer CHECK (max_depth IS NULL OR max_depth > 0);
ALTER TABLE queues ADD COLUMN warning_threshold double precision
    CHECK (warning_threshold IS NULL OR (warning_threshold > 0 AND warning_threshold <= 1));
