-- The statements of store SearchIndexes, rendered by RenderedSqlTest from the code: do not edit by hand.

-- SearchIndexes.LEAVES
SELECT t.relid::regclass::text AS leaf,
       (SELECT count(*) FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        WHERE x.indrelid = t.relid AND i.relname = ANY(s.names) AND x.indisvalid AND x.indisready)
         = cardinality(s.names) AS indexed,
       ARRAY(SELECT i.relname::text FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
             WHERE x.indrelid = t.relid AND i.relname = ANY(s.names)
               AND NOT (x.indisvalid AND x.indisready) ORDER BY 1) AS invalid,
       EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.relid = t.relid) AS building
FROM pg_partition_tree('job_history') t JOIN pg_class c ON c.oid = t.relid,
     LATERAL (SELECT ARRAY(SELECT c.relname || x FROM unnest(ARRAY['_search_idx', '_state_created_idx', '_queue_created_idx', '_type_created_idx', '_tags_idx']) x)::name[] AS names) s
WHERE t.isleaf ORDER BY 1;

-- SearchIndexes.create(a closed day's partition)
CREATE INDEX CONCURRENTLY IF NOT EXISTS "job_history_done_20261128_search_idx" ON "job_history_done_20261128" USING gin (job_search_text(args, meta, errors) gin_trgm_ops);
CREATE INDEX CONCURRENTLY IF NOT EXISTS "job_history_done_20261128_state_created_idx" ON "job_history_done_20261128" (state, created_at, id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS "job_history_done_20261128_queue_created_idx" ON "job_history_done_20261128" (queue, created_at, id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS "job_history_done_20261128_type_created_idx" ON "job_history_done_20261128" (type, created_at, id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS "job_history_done_20261128_tags_idx" ON "job_history_done_20261128" USING gin (tags);

-- SearchIndexes.drop(a failed build's leftovers)
DROP INDEX IF EXISTS "job_history_done_20261128_search_idx";
