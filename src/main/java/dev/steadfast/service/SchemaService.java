package dev.steadfast.service;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.store.SchemaStore;
import dev.steadfast.store.SchemaStore.SchemaRow;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Map;

/** Register, list, read and remove JSON Schemas (ojs-http-binding.md 15); 409 for a taken URI, 404 for an unknown one. */
@ApplicationScoped
public class SchemaService {

    private final SchemaStore store;
    private final Clock clock;

    public SchemaService(SchemaStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    public Uni<SchemaRow> register(String uri, String type, int version, String schemaJson) {
        SchemaRow row = new SchemaRow(uri, type, version, schemaJson, JobService.now(clock));
        return store.insert(row).map(created -> {
            if (!created) {
                throw new OjsException(ErrorCode.CONFLICT, "A schema with uri '" + uri + "' is already registered;"
                        + " delete it first or register a new version under a new uri.", Map.of("uri", uri));
            }
            return row;
        });
    }

    public Uni<SchemaStore.Page> list(int limit, int offset) {
        return store.list(limit, offset);
    }

    public Uni<SchemaRow> get(String uri) {
        return store.find(uri).map(o -> o.orElseThrow(() -> OjsException.notFound("schema", uri)));
    }

    public Uni<Void> delete(String uri) {
        return store.delete(uri).map(found -> {
            if (!found) {
                throw OjsException.notFound("schema", uri);
            }
            return null;
        });
    }
}
