-- Schema registry by job type and version (ojs-schema-registry.md, ojs-job-versioning.md 6 and 11), beside the
-- binding's registry by URI (ojs-http-binding.md 15), in the one table: every schema has a URI (derived as
-- urn:ojs:schema:<type>:v<version> when registered by type and version) and a type and version.

-- A version is a whole number (1, 2: what the binding and the conformance suite send) or dotted (2.0, 2.0.0: the
-- extension specs' form), kept as written; major, minor and patch order the versions (domain.schema.SchemaVersion),
-- and "2", "2.0" and "2.0.0" are one version. A registration takes a transaction-scoped advisory lock on its type
-- and inserts only when no schema of that type holds the version (store.SchemaStore.INSERT), so the rule holds
-- across instances without a unique index: rows registered by URI before this migration may share a version, and
-- a migration must not fail on them.
ALTER TABLE schemas DROP CONSTRAINT schemas_version_check;
ALTER TABLE schemas ALTER COLUMN version TYPE text USING version::text;
ALTER TABLE schemas
    ADD COLUMN major integer,
    ADD COLUMN minor integer NOT NULL DEFAULT 0,
    ADD COLUMN patch integer NOT NULL DEFAULT 0,
    ADD COLUMN compatible_with text[];
UPDATE schemas SET major = version::integer;
ALTER TABLE schemas
    ALTER COLUMN major SET NOT NULL,
    ADD CONSTRAINT schemas_version_form CHECK (version ~ '^(0|[1-9][0-9]{0,8})(\.(0|[1-9][0-9]{0,8})){0,2}$'),
    ADD CONSTRAINT schemas_version_parts CHECK (major >= 0 AND minor >= 0 AND patch >= 0
        AND (major, minor, patch) <> (0, 0, 0));
-- Latest of a type, one version of a type, the versions of a type.
CREATE INDEX schemas_type_version_idx ON schemas (type, major DESC, minor DESC, patch DESC, created_at);

-- Validation of job args on PUSH (ojs-schema-registry.md 7): a type's mode when it is not the server's default
-- (steadfast.schemas.validation). Read into each instance's schema catalog, reread at most once a second.
CREATE TABLE schema_types (
    type       text        PRIMARY KEY CHECK (length(type) BETWEEN 1 AND 255),
    validation text        NOT NULL CHECK (validation IN ('strict', 'warn', 'off')),
    updated_at timestamptz NOT NULL
);
