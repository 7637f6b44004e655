package dev.steadfast.store;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The schema registry (ojs-http-binding.md section 15): JSON Schemas by URI, shared by every instance. Registering
 * a URI that exists is refused (the insert skips it and the service answers 409); the registry stores schemas, it
 * does not validate jobs against them.
 */
@ApplicationScoped
public class SchemaStore {

    /** A registered schema; {@code schemaJson} is null in listings. */
    public record SchemaRow(String uri, String type, int version, String schemaJson, Instant createdAt) {
    }

    static final String INSERT = """
            INSERT INTO schemas (uri, type, version, schema, created_at) VALUES ($1, $2, $3, $4::text::jsonb, $5)
            ON CONFLICT (uri) DO NOTHING RETURNING uri""";
    static final String LIST = "SELECT uri, type, version, NULL AS schema, created_at, count(*) OVER () AS total"
            + " FROM schemas ORDER BY uri LIMIT $1 OFFSET $2";
    static final String FIND = "SELECT uri, type, version, schema::text AS schema, created_at FROM schemas WHERE uri = $1";
    static final String DELETE = "DELETE FROM schemas WHERE uri = $1 RETURNING uri";

    private final Pool pool;

    public SchemaStore(Pool pool) {
        this.pool = pool;
    }

    /** Registers the schema; false when the URI is taken. */
    public Uni<Boolean> insert(SchemaRow s) {
        return pool.preparedQuery(INSERT).execute(Tuple.of(s.uri(), s.type(), s.version(), s.schemaJson(),
                JobStore.odt(s.createdAt()))).map(rows -> rows.rowCount() == 1);
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
        return pool.preparedQuery(FIND).execute(Tuple.of(uri)).map(rows -> rows.rowCount() == 0 ? Optional.empty()
                : Optional.of(row(rows.iterator().next())));
    }

    public Uni<Boolean> delete(String uri) {
        return pool.preparedQuery(DELETE).execute(Tuple.of(uri)).map(rows -> rows.rowCount() == 1);
    }

    private static SchemaRow row(Row r) {
        return new SchemaRow(r.getString("uri"), r.getString("type"), r.getInteger("version"), r.getString("schema"),
                JobRow.instant(r, "created_at"));
    }
}
