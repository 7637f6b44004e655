package dev.steadfast.domain.schema;

import dev.steadfast.domain.OjsException;

/**
 * A job type with the version a producer may write into it (ojs-job-versioning.md 5.3): {@code invoice.generate@2.0}
 * is type {@code invoice.generate}, version {@code 2.0}. The job's own {@code version} field wins over the one in
 * the type. A type without {@code @}, or whose text after its last {@code @} is not a version, is kept whole (and
 * then refused as a type, since a type has no {@code @}).
 *
 * @param version the version after {@code @}, or null
 */
public record VersionedType(String type, SchemaVersion version) {

    public static VersionedType split(String type) {
        int at = type.lastIndexOf('@');
        if (at < 0) {
            return new VersionedType(type, null);
        }
        try {
            return new VersionedType(type.substring(0, at), SchemaVersion.parse("type", type.substring(at + 1)));
        } catch (OjsException notAVersion) {
            return new VersionedType(type, null);
        }
    }
}
