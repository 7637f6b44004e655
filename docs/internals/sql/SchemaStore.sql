-- The statements of store SchemaStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- SchemaStore.LOCK_TYPE
SELECT pg_advisory_xact_lock(hashtextextended('steadfast.schemas:' || $1, 0));

-- SchemaStore.INSERT
INSERT INTO schemas (uri, type, version, major, minor, patch, schema, created_at, compatible_with)
SELECT $1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, $9
WHERE NOT EXISTS (SELECT 1 FROM schemas WHERE type = $2 AND major = $4 AND minor = $5 AND patch = $6)
ON CONFLICT (uri) DO NOTHING RETURNING uri;

-- SchemaStore.FIND_TAKEN
SELECT uri, type, version, major, minor, patch, created_at, compatible_with, schema::text AS schema FROM schemas WHERE uri = $1 OR (type = $2 AND major = $3 AND minor = $4 AND patch = $5) ORDER BY uri = $1 DESC LIMIT 1;

-- SchemaStore.LIST
SELECT uri, type, version, major, minor, patch, created_at, compatible_with, NULL AS schema, count(*) OVER () AS total FROM schemas ORDER BY uri LIMIT $1 OFFSET $2;

-- SchemaStore.FIND
SELECT uri, type, version, major, minor, patch, created_at, compatible_with, schema::text AS schema FROM schemas WHERE uri = $1;

-- SchemaStore.FIND_VERSION
SELECT uri, type, version, major, minor, patch, created_at, compatible_with, schema::text AS schema FROM schemas WHERE type = $1 AND major = $2 AND minor = $3 AND patch = $4 ORDER BY created_at, uri LIMIT 1;

-- SchemaStore.LATEST
SELECT uri, type, version, major, minor, patch, created_at, compatible_with, schema::text AS schema FROM schemas WHERE type = $1 ORDER BY major DESC, minor DESC, patch DESC, created_at, uri LIMIT 1;

-- SchemaStore.VERSIONS
SELECT uri, type, version, major, minor, patch, created_at, compatible_with, NULL AS schema FROM schemas WHERE type = $1 ORDER BY major DESC, minor DESC, patch DESC, created_at, uri;

-- SchemaStore.DELETE
DELETE FROM schemas WHERE uri = $1 RETURNING uri;

-- SchemaStore.DELETE_VERSION
DELETE FROM schemas WHERE type = $1 AND major = $2 AND minor = $3 AND patch = $4 RETURNING uri;

-- SchemaStore.CATALOG
SELECT uri, type, version, created_at FROM schemas;

-- SchemaStore.MODES
SELECT type, validation FROM schema_types;

-- SchemaStore.FIND_MODE
SELECT validation FROM schema_types WHERE type = $1;

-- SchemaStore.SET_MODE
INSERT INTO schema_types (type, validation, updated_at) VALUES ($1, $2, $3) ON CONFLICT (type) DO UPDATE SET validation = EXCLUDED.validation, updated_at = EXCLUDED.updated_at;

-- SchemaStore.CLEAR_MODE
DELETE FROM schema_types WHERE type = $1;
