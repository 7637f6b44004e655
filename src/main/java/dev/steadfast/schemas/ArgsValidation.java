package dev.steadfast.schemas;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.coalescing.RefreshedSnapshot;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.schema.SchemaCatalog;
import dev.steadfast.domain.schema.SchemaVersion;
import dev.steadfast.domain.schema.ValidationMode;
import dev.steadfast.store.schemas.SchemaStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Checks a PUSH's args against the JSON Schema registered for its type (ojs-schema-registry.md 7): which schema
 * applies is the {@link SchemaCatalog}'s rule; {@code strict} refuses the job with 400 {@code schema_validation}
 * (ojs-http-binding.md 16.3; details as ojs-json-format.md 12.4), {@code warn} lets it in with {@code warnings},
 * {@code off} checks nothing.
 *
 * <p>Each instance keeps the catalog (URIs, types, versions and modes, no documents) and rereads it at most once a
 * second, at once after a change it made itself; a registration on another instance applies here within a second.
 * A job of a type without schemas costs a map lookup; the args are parsed only when a schema applies. Documents are
 * read when a schema is first used and kept compiled (at most {@link #MAX_COMPILED}, keyed by URI and registration
 * instant so a schema deleted and registered again is compiled again).
 */
@ApplicationScoped
public class ArgsValidation {

    private static final Logger LOG = Logger.getLogger(ArgsValidation.class);
    static final Duration FRESH = Duration.ofSeconds(1);
    static final int MAX_COMPILED = 1000;

    /** What one job's check found: nothing, warnings to answer, or the refusal to answer. */
    public record Outcome(List<String> warnings, OjsException refusal) {
        static final Outcome NONE = new Outcome(List.of(), null);
    }

    private static final Uni<Outcome> NONE = Uni.createFrom().item(Outcome.NONE);

    private final SchemaStore store;
    private final ArgsSchemas schemas;
    private final ObjectMapper json;
    private final Clock clock;
    private final ValidationMode defaultMode;
    private final RefreshedSnapshot<SchemaCatalog> catalog;
    /** A compiled schema, or null for a stored document that no longer compiles. */
    private final Map<String, Optional<ArgsSchemas.Compiled>> compiled = new ConcurrentHashMap<>();

    public ArgsValidation(SchemaStore store, ArgsSchemas schemas, ObjectMapper json, Clock clock, SchemaConfig config) {
        this.store = store;
        this.schemas = schemas;
        this.json = json;
        this.clock = clock;
        this.defaultMode = config.validation();
        this.catalog = new RefreshedSnapshot<>(FRESH, () -> store.catalog()
                .map(c -> new SchemaCatalog(c.entries(), c.modes(), defaultMode)));
    }

    /** The mode of types without one of their own. */
    public ValidationMode defaultMode() {
        return defaultMode;
    }

    /** This instance changed the registry: the next check rereads it. */
    public void changed() {
        catalog.forget();
    }

    /** One PUSH: its warnings; a refusal is thrown. */
    public Uni<List<String>> check(SchemaSubject c) {
        return catalog.get(clock.instant()).flatMap(cat -> check(cat, c)).map(o -> {
            if (o.refusal() != null) {
                throw o.refusal();
            }
            return o.warnings();
        });
    }

    /** Several PUSHes (a batch); null commands (unreadable jobs) get no check. */
    public Uni<List<Outcome>> checkEach(List<? extends SchemaSubject> commands) {
        return catalog.get(clock.instant()).flatMap(cat -> {
            if (cat.isEmpty()) {
                List<Outcome> none = new ArrayList<>(commands.size());
                commands.forEach(c -> none.add(Outcome.NONE));
                return Uni.createFrom().item(none);
            }
            Uni<List<Outcome>> out = Uni.createFrom().item(new ArrayList<>(commands.size()));
            for (SchemaSubject c : commands) {
                out = out.flatMap(list -> (c == null ? NONE : check(cat, c)).map(o -> {
                    list.add(o);
                    return list;
                }));
            }
            return out;
        });
    }

    private Uni<Outcome> check(SchemaCatalog cat, SchemaSubject c) {
        if (cat.isEmpty()) {
            return NONE;
        }
        SchemaVersion version = null;
        String uri = null;
        if (c.extensionsJson() != null) {
            JsonNode ext = read(c.extensionsJson());
            JsonNode v = ext.get("version");
            if (v != null && !v.isNull()) {
                version = SchemaVersion.of("version", v.isIntegralNumber() ? (Object) v.longValue() : v.asText());
            }
            JsonNode s = ext.get("schema");
            if (s != null && s.isTextual()) {
                uri = s.textValue();
            }
        }
        SchemaCatalog.Target t = cat.target(c.type(), version, uri);
        if (t.none()) {
            return NONE;
        }
        if (t.missingUri() != null) {
            return Uni.createFrom().item(missing(t));
        }
        return compiled(t.schema()).map(schema -> {
            if (schema.isEmpty()) {
                return Outcome.NONE;
            }
            List<ArgsSchemas.Violation> found = schemas.violations(schema.get(), read(c.argsJson()));
            return found.isEmpty() ? Outcome.NONE : outcome(t, c.type(), found);
        });
    }

    private static Outcome missing(SchemaCatalog.Target t) {
        String message = "The job names schema '" + t.missingUri() + "', which is not registered.";
        if (t.mode() == ValidationMode.WARN) {
            return new Outcome(List.of("Schema validation warning: " + message), null);
        }
        return new Outcome(List.of(), new OjsException(ErrorCode.INVALID_REQUEST, message,
                Map.of("field", "schema", "uri", t.missingUri())));
    }

    private static Outcome outcome(SchemaCatalog.Target t, String type, List<ArgsSchemas.Violation> found) {
        SchemaCatalog.Entry e = t.schema();
        if (t.mode() == ValidationMode.WARN) {
            List<String> w = new ArrayList<>(found.size());
            found.forEach(v -> w.add("Schema validation warning: " + v.path() + ": " + v.message()));
            return new Outcome(w, null);
        }
        List<Map<String, Object>> errors = new ArrayList<>(found.size());
        found.forEach(v -> errors.add(v.wire()));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("uri", e.uri());
        schema.put("type", e.type());
        schema.put("version", e.version().wire());
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("validation_errors", errors);
        d.put("schema", schema);
        d.put("mode", t.mode().wire());
        return new Outcome(List.of(), new OjsException(ErrorCode.SCHEMA_VALIDATION, "Job arguments do not match"
                + " schema for " + type + "@" + e.version().text() + " (" + e.uri() + "): " + found.get(0).path()
                + ": " + found.get(0).message(), d));
    }

    private Uni<Optional<ArgsSchemas.Compiled>> compiled(SchemaCatalog.Entry e) {
        String key = e.uri() + '\n' + e.createdAt();
        Optional<ArgsSchemas.Compiled> known = compiled.get(key);
        if (known != null) {
            return Uni.createFrom().item(known);
        }
        return store.find(e.uri()).map(row -> {
            if (row.isEmpty() || !row.get().createdAt().equals(e.createdAt())) {
                return Optional.<ArgsSchemas.Compiled>empty(); // changed since the catalog was read
            }
            Optional<ArgsSchemas.Compiled> c;
            try {
                c = Optional.of(schemas.compile("schema", read(row.get().schemaJson())));
            } catch (OjsException bad) { // registered before schemas were checked (V22): documentation only
                LOG.warnf("Schema %s does not compile and is not applied to args: %s", e.uri(), bad.getMessage());
                c = Optional.empty();
            }
            if (compiled.size() >= MAX_COMPILED) {
                compiled.clear();
            }
            compiled.put(key, c);
            return c;
        });
    }

    private JsonNode read(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored and command JSON is written by this server", e);
        }
    }

    /** Forgets the catalog and the compiled schemas (the tables were emptied). */
    public void forget() {
        catalog.forget();
        compiled.clear();
    }
}
