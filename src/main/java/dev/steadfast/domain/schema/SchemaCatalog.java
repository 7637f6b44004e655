package dev.steadfast.domain.schema;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What this instance knows of the schema registry without the schema documents: every schema's URI, type, version
 * and registration instant, and the types whose validation mode is not the server's default. It answers which
 * schema a job's args are checked against, and how ({@link #target}); it is immutable and rebuilt when reread.
 *
 * <p>The rule (ojs-schema-registry.md 6.2 and 7, ojs-http-binding.md 9.1 {@code schema}): nothing is checked when
 * the type's mode is {@code off}; a job that names a schema URI is checked against that schema; a versioned job
 * against its type's schema of that version (none registered: not checked); an unversioned job against its type's
 * latest version (the highest; among equal versions registered by URI, the first registered).
 */
public final class SchemaCatalog {

    /** One registered schema, without its document; {@code createdAt} tells two registrations of a URI apart. */
    public record Entry(String uri, String type, SchemaVersion version, Instant createdAt) {
    }

    /** The check a job gets: against {@code schema} (null: none applies) in {@code mode}. */
    public record Target(Entry schema, ValidationMode mode, String missingUri) {

        /** True when nothing is to be checked. */
        public boolean none() {
            return mode == ValidationMode.OFF || schema == null && missingUri == null;
        }
    }

    private static final Comparator<Entry> NEWEST_FIRST = Comparator.comparing(Entry::version).reversed()
            .thenComparing(Entry::createdAt);

    private final Map<String, List<Entry>> byType = new HashMap<>();
    private final Map<String, Entry> byUri = new HashMap<>();
    private final Map<String, ValidationMode> modes;
    private final ValidationMode defaultMode;

    public SchemaCatalog(Collection<Entry> entries, Map<String, ValidationMode> modes, ValidationMode defaultMode) {
        for (Entry e : entries) {
            byType.computeIfAbsent(e.type(), t -> new ArrayList<>()).add(e);
            byUri.put(e.uri(), e);
        }
        byType.values().forEach(l -> l.sort(NEWEST_FIRST));
        this.modes = Map.copyOf(modes);
        this.defaultMode = defaultMode;
    }

    /** True when no schema is registered: no job is checked. */
    public boolean isEmpty() {
        return byUri.isEmpty();
    }

    /** The mode of {@code type}: its own, or the server's default. */
    public ValidationMode mode(String type) {
        return modes.getOrDefault(type, defaultMode);
    }

    /** True when {@code type} has a mode of its own. */
    public boolean hasOwnMode(String type) {
        return modes.containsKey(type);
    }

    /**
     * The check for a job of {@code type} with {@code version} (null: unversioned) naming {@code uri} (null: none).
     * A named URI that is not registered gives a target with {@code missingUri} set and no schema.
     */
    public Target target(String type, SchemaVersion version, String uri) {
        ValidationMode mode = mode(type);
        if (mode == ValidationMode.OFF) {
            return new Target(null, mode, null);
        }
        if (uri != null) {
            Entry e = byUri.get(uri);
            return new Target(e, mode, e == null ? uri : null);
        }
        List<Entry> versions = byType.get(type);
        if (versions == null) {
            return new Target(null, mode, null);
        }
        if (version == null) {
            return new Target(versions.get(0), mode, null);
        }
        for (Entry e : versions) {
            if (e.version().sameAs(version)) {
                return new Target(e, mode, null);
            }
        }
        return new Target(null, mode, null);
    }
}
