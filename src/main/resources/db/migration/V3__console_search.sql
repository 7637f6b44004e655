-- Console text search over a job's args, meta and error history (types and messages; backtraces are left out).
-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner can create it; it ships with the server.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The searchable text of a job. IMMUTABLE so it can back an expression index; queries call the same function.
-- Each part is cut so a huge args blob cannot make a huge index entry: text beyond the cut is not searchable.
CREATE FUNCTION job_search_text(args jsonb, meta jsonb, errors jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT left(args::text, 8000) || ' ' || left(meta::text, 2000) || ' '
        || left(jsonb_path_query_array(errors, '$[*].type')::text || ' '
                || jsonb_path_query_array(errors, '$[*].message')::text, 8000)
$$;

-- Trigram GIN index: serves ILIKE '%text%' for any text of three characters or more.
CREATE INDEX jobs_search_idx ON jobs USING gin (job_search_text(args, meta, errors) gin_trgm_ops);
