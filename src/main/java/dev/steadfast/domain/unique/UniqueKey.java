package dev.steadfast.domain.unique;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.unique.UniquePolicy.Dimension;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The uniqueness key of a job (ojs-unique-jobs.md section 4): SHA-256 over the canonical JSON of the fingerprinted
 * dimensions, lower-case hex. {@code type} is always included. Selected args fields ({@code args_keys}, or an array
 * {@code key}) are keys of the job's first argument, which must be an object (OJS args are an array; the
 * keyword-arguments object is by convention its first element); a named key that is absent is refused (2.2),
 * naming the field that named it. A custom string key is fingerprinted as {@code {"key": ..., "type": ...}}.
 */
public final class UniqueKey {

    private UniqueKey() {
    }

    /** The key of a job with {@code policy}; {@code args} and {@code meta} as decoded JSON (List, Map). */
    public static String of(UniquePolicy policy, String type, String queue, List<?> args, Map<?, ?> meta) {
        return sha256(CanonicalJson.write(fingerprint(policy, type, queue, args, meta)));
    }

    /** The object that is hashed, before canonicalisation. */
    static Map<String, Object> fingerprint(UniquePolicy policy, String type, String queue, List<?> args,
                                           Map<?, ?> meta) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("type", type);
        if (policy.customKey() != null) {
            f.put("key", policy.customKey());
            return f;
        }
        if (policy.dimensions().contains(Dimension.QUEUE)) {
            f.put("queue", queue);
        }
        if (policy.dimensions().contains(Dimension.ARGS)) {
            f.put("args", policy.argsKeys() == null ? args : selectArgs(policy, args));
        }
        if (policy.dimensions().contains(Dimension.META)) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (String k : policy.metaKeys()) {
                m.put(k, meta == null ? null : meta.get(k));
            }
            f.put("meta", m);
        }
        return f;
    }

    private static Map<String, Object> selectArgs(UniquePolicy policy, List<?> args) {
        String field = policy.argsField();
        Object first = args == null || args.isEmpty() ? null : args.get(0);
        if (!(first instanceof Map<?, ?> obj)) {
            throw OjsException.invalidField(field, "'" + field + "' names fields of the job's first argument, which"
                    + " must then be an object (e.g. args: [{\"order\": 1}]).", "args[0] an object",
                    first == null ? "no first argument" : "args[0] not an object");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (String k : policy.argsKeys()) {
            if (!obj.containsKey(k)) {
                throw OjsException.invalidField(field, "'" + field + "' names '" + k
                        + "', which the job's first argument does not have (ojs-unique-jobs 2.2).", "a key of args[0]", k);
            }
            out.put(k, obj.get(k));
        }
        return out;
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** The advisory-lock number of a key: its first 64 bits (a collision only makes two keys wait for each other). */
    public static long lockNumber(String key) {
        return Long.parseUnsignedLong(key.substring(0, 16), 16);
    }
}
