package dev.steadfast.store.schemas;

import dev.steadfast.domain.schema.SchemaCatalog;
import dev.steadfast.domain.schema.SchemaVersion;
import dev.steadfast.domain.schema.ValidationMode;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The schema registry (ojs-http-binding.md 15, ojs-schema-registry.md 4, ojs-job-versioning.md 11), shared by every
 * instance: JSON Schemas by URI and by job type and version, and the types' validation modes. A URI, and a version
 * of a type ("2", "2.0" and "2.0.0" being one), is registered once: {@link #insert} serialises registrations of a
 * type with a transaction-scoped advisory lock and inserts only when both are free (V22 says why this is not a
 * unique index). Documents are read one at a time ({@link #find}); the catalog ({@link #catalog}) has none.
 */
@ApplicationScoped
public class SchemaStore {

    /** A registered schema; {@code schemaJson} is null in listings, {@code compatibleWith} null when not given. */
    public record SchemaRow(String uri, String type, SchemaVersion version, String schemaJson, Instant createdAt,
                            List<String> compatibleWith) {
    }

    /**
     * The outcome of a registration: created, or refused because {@code existing} holds the URI or the version
     * ({@code existing} null when that one was deleted in the meantime).
     */
    public record Registered(boolean created, SchemaRow existing) {
    }

    private static final String COLUMNS = "uri, type, version, major, minor, patch, created_at, compatible_with";

    /** Registration, first statement: one lock per type, so two instances cannot both take one version. */
    static final String LOCK_TYPE = "SELECT pg_advisory_xact_lock(hashtextextended('steadfast.schemas:' || $1, 0))";
    /** Registration: inserts when neither the URI nor the type's version is taken. */
    static final String INSERT = """
            INSERT INTO schemas (uri, type, version, major, minor, patch, schema, created_at, compatible_with)
            SELECT $1, $2, $3, $4, $5, $6, $7::text::jsonb, $8, $9
            WHERE NOT EXISTS (SELECT 1 FROM schemas WHERE type = $2 AND major = $4 AND minor = $5 AND patch = $6)
            ON CONFLICT (uri) DO NOTHING RETURNING uri""";
    /** Registration refused: the schema holding the URI or the version, with its document (an identical PUT is 200). */
    static final String FIND_TAKEN = "SELECT " + COLUMNS + ", schema::text AS schema FROM schemas WHERE uri = $1"
            + " OR (type = $2 AND major = $3 AND minor = $4 AND patch = $5) ORDER BY uri = $1 DESC LIMIT 1";
    static final String LIST = "SELECT " + COLUMNS + ", NULL AS schema, count(*) OVER () AS total"
            + " FROM schemas ORDER BY uri LIMIT $1 OFFSET $2";
    static final String FIND = "SELECT " + COLUMNS + ", schema::text AS schema FROM schemas WHERE uri = $1";
    /** A type's version; of rows registered by URI before V22 sharing one, the first registered. */
    static final String FIND_VERSION = "SELECT " + COLUMNS + ", schema::text AS schema FROM schemas"
            + " WHERE type = $1 AND major = $2 AND minor = $3 AND patch = $4 ORDER BY created_at, uri LIMIT 1";
    /** The latest version of a type (ojs-schema-registry.md 6.3: the highest). */
    static final String LATEST = "SELECT " + COLUMNS + ", schema::text AS schema FROM schemas WHERE type = $1"
            + " ORDER BY major DESC, minor DESC, patch DESC, created_at, uri LIMIT 1";
    /** A type's versions, newest first (ojs-schema-registry.md 4.3). */
    static final String VERSIONS = "SELECT " + COLUMNS + ", NULL AS schema FROM schemas WHERE type = $1"
            + " ORDER BY major DESC, minor DESC, patch DESC, created_at, uri";
    static final String DELETE = "DELETE FROM schemas WHERE uri = $1 RETURNING uri";
    static final String DELETE_VERSION = "DELETE FROM schemas WHERE type = $1 AND major = $2 AND minor = $3"
            + " AND patch = $4 RETURNING uri";
    /** The catalog each instance keeps (schemas.ArgsValidation): no documents. */
    static final String CATALOG = "SELECT uri, type, version, created_at FROM schemas";
    static final String MODES = "SELECT type, validation FROM schema_types";
    static final String FIND_MODE = "SELECT validation FROM schema_types WHERE type = $1";
    static final String SET_MODE = "INSERT INTO schema_types (type, validation, updated_at) VALUES ($1, $2, $3)"
            + " ON CONFLICT (type) DO UPDATE SET validation = EXCLUDED.validation, updated_at = EXCLUDED.updated_at";
    static final String CLEAR_MODE = "DELETE FROM schema_types WHERE type = $1";

    private final Pool pool;

    public SchemaStore(Pool pool) {
        this.pool = pool;
    }

    /** Registers the schema, or answers the one that holds its URI or its type's version. */
    public Uni<Registered> insert(SchemaRow s) {
        SchemaVersion v = s.version();
        Tuple insert = Tuple.of(s.uri(), s.type(), v.text(), v.major(), v.minor(), v.patch())
                .addValue(s.schemaJson()).addValue(JobStore.odt(s.createdAt()))
                .addArrayOfString(s.compatibleWith() == null ? null : s.compatibleWith().toArray(String[]::new));
        return pool.withTransaction(conn -> conn.preparedQuery(LOCK_TYPE).execute(Tuple.of(s.type()))
                .flatMap(x -> conn.preparedQuery(INSERT).execute(insert))
                .flatMap(rows -> rows.rowCount() == 1 ? Uni.createFrom().item(new Registered(true, null))
                        : conn.preparedQuery(FIND_TAKEN).execute(Tuple.of(s.uri(), s.type(), v.major(), v.minor(),
                                v.patch())).map(taken -> new Registered(false, first(taken).orElse(null)))));
    }

    /** A page of schemas by URI, and how many there are in all. */
    public record Page(List<SchemaRow> schemas, long total) {
    }

    public Uni<Page> list(int limit, int offset) {
        return pool.preparedQuery(LIST).execute(Tuple.of(limit, offset)).map(rows -> {
            List<SchemaRow> out = new ArrayList<>();
            long total = 0;
            for (Row r : rows) {
                out.add(row(r));
                total = r.getLong("total");
            }
            return new Page(out, total);
        });
    }

    public Uni<Optional<SchemaRow>> find(String uri) {
        return pool.preparedQuery(FIND).execute(Tuple.of(uri)).map(SchemaStore::first);
    }

    public Uni<Optional<SchemaRow>> find(String type, SchemaVersion v) {
        return pool.preparedQuery(FIND_VERSION).execute(Tuple.of(type, v.major(), v.minor(), v.patch()))
                .map(SchemaStore::first);
    }

    public Uni<Optional<SchemaRow>> latest(String type) {
        return pool.preparedQuery(LATEST).execute(Tuple.of(type)).map(SchemaStore::first);
    }

    /** The type's versions, newest first, without documents; empty when it has none. */
    public Uni<List<SchemaRow>> versions(String type) {
        return pool.preparedQuery(VERSIONS).execute(Tuple.of(type)).map(rows -> {
            List<SchemaRow> out = new ArrayList<>(rows.rowCount());
            rows.forEach(r -> out.add(row(r)));
            return out;
        });
    }

    public Uni<Boolean> delete(String uri) {
        return pool.preparedQuery(DELETE).execute(Tuple.of(uri)).map(rows -> rows.rowCount() >= 1);
    }

    /** Deletes the type's version (every row holding it); false when none did. */
    public Uni<Boolean> delete(String type, SchemaVersion v) {
        return pool.preparedQuery(DELETE_VERSION).execute(Tuple.of(type, v.major(), v.minor(), v.patch()))
                .map(rows -> rows.rowCount() >= 1);
    }

    /** Every schema without its document, and the types' own validation modes. */
    public Uni<Catalog> catalog() {
        return pool.preparedQuery(CATALOG).execute().flatMap(rows -> {
            List<SchemaCatalog.Entry> entries = new ArrayList<>(rows.rowCount());
            for (Row r : rows) {
                entries.add(new SchemaCatalog.Entry(r.getString("uri"), r.getString("type"),
                        SchemaVersion.parse("version", r.getString("version")), JobRows.instant(r, "created_at")));
            }
            return pool.preparedQuery(MODES).execute().map(m -> {
                Map<String, ValidationMode> modes = new HashMap<>();
                m.forEach(r -> modes.put(r.getString("type"), ValidationMode.parse("validation",
                        r.getString("validation"))));
                return new Catalog(entries, modes);
            });
        });
    }

    /** The registry as {@link #catalog} reads it. */
    public record Catalog(List<SchemaCatalog.Entry> entries, Map<String, ValidationMode> modes) {
    }

    /** The type's own validation mode, if it has one. */
    public Uni<Optional<ValidationMode>> mode(String type) {
        return pool.preparedQuery(FIND_MODE).execute(Tuple.of(type)).map(rows -> rows.rowCount() == 0
                ? Optional.empty() : Optional.of(ValidationMode.parse("validation",
                rows.iterator().next().getString("validation"))));
    }

    /** Sets the type's own mode; null returns it to the server's default. */
    public Uni<Void> setMode(String type, ValidationMode mode, Instant now) {
        Uni<RowSet<Row>> u = mode == null ? pool.preparedQuery(CLEAR_MODE).execute(Tuple.of(type))
                : pool.preparedQuery(SET_MODE).execute(Tuple.of(type, mode.wire(), JobStore.odt(now)));
        return u.replaceWithVoid();
    }

    private static Optional<SchemaRow> first(RowSet<Row> rows) {
        return rows.rowCount() == 0 ? Optional.empty() : Optional.of(row(rows.iterator().next()));
    }

    private static SchemaRow row(Row r) {
        String[] compatible = r.getArrayOfStrings("compatible_with");
        return new SchemaRow(r.getString("uri"), r.getString("type"),
                SchemaVersion.parse("version", r.getString("version")), r.getString("schema"),
                JobRows.instant(r, "created_at"), compatible == null ? null : Arrays.asList(compatible));
    }
}
