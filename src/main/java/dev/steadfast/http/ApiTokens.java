package dev.steadfast.http;

import dev.steadfast.http.ApiAccess.Role;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The API tokens the server accepts, read from {@code steadfast.auth.tokens."<name>"=<role[,role]>:sha256:<hex>}.
 * Only the SHA-256 of each token is configured: tokens are 256-bit random strings (the server jar's {@code token} command), so a
 * fast unsalted hash is enough to keep a leaked configuration from revealing them (nobody can search a 2^256
 * space), and checking costs one hash per distinct token ({@link ApiAuth} remembers the tokens that matched). A
 * presented token is hashed and compared with every configured hash in constant time ({@link MessageDigest#isEqual}),
 * without stopping at the first match.
 */
public final class ApiTokens {

    /** A configured token: its name (for logs), its roles and the SHA-256 of its secret. */
    public record Entry(String name, Set<Role> roles, byte[] sha256) {
    }

    private static final Pattern LINE = Pattern.compile("^([A-Za-z,\\s]+):sha256:([0-9a-fA-F]{64})$");

    private final List<Entry> entries;

    private ApiTokens(List<Entry> entries) {
        this.entries = entries;
    }

    /**
     * Parses the configured tokens; a malformed line is an {@link IllegalArgumentException} naming the token
     * (never its value), so a start-up with a typo fails instead of locking a client out at run time.
     */
    public static ApiTokens parse(Map<String, String> config) {
        List<Entry> out = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(config).entrySet()) {
            String where = "steadfast.auth.tokens.\"" + e.getKey() + "\"";
            var m = LINE.matcher(e.getValue().trim());
            if (!m.matches()) {
                throw new IllegalArgumentException(where + " must look like <role[,role]>:sha256:<64 hex digits>"
                        + " (make one with: java -jar quarkus-run.jar token --role worker)");
            }
            Set<Role> roles = EnumSet.noneOf(Role.class);
            for (String r : m.group(1).split(",")) {
                Role role = r.isBlank() ? null : Role.of(r);
                if (role == null) {
                    throw new IllegalArgumentException(where + " names an unknown role '" + r.trim()
                            + "'; roles are producer, worker, admin, readonly");
                }
                roles.add(role);
            }
            out.add(new Entry(e.getKey(), roles, HexFormat.of().parseHex(m.group(2).toLowerCase())));
        }
        return new ApiTokens(List.copyOf(out));
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public int size() {
        return entries.size();
    }

    /** The entry whose hash matches {@code token}, or null; the time taken does not depend on which matched. */
    public Entry find(String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        byte[] h = sha256(token);
        Entry found = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(h, e.sha256()) && found == null) {
                found = e;
            }
        }
        return found;
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
