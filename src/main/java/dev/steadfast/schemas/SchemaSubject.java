package dev.steadfast.schemas;

/**
 * What schema validation reads from a job being enqueued: its type, its args as JSON and its extensions as JSON
 * (where the job may name a schema version or URI).
 */
public interface SchemaSubject {

    String type();

    String argsJson();

    String extensionsJson();
}
