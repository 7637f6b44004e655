package dev.steadfast.console.auth;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The console's users, read from configuration like the API tokens:
 * {@code steadfast.console.users."<name>"=<role>:<pbkdf2 hash>} (role {@code readonly}, {@code operator} or
 * {@code admin}; the hash from the server jar's {@code hash-password} command), plus the single user of
 * {@code steadfast.console.username} / {@code password-hash} of earlier versions, who is an {@code admin}. A
 * malformed line fails start-up naming the user (never the hash), so a typo never silently locks someone out.
 */
final class ConsoleUsers {

    /** A configured user: name, role and password hash. */
    public record User(String name, ConsoleRole role, PasswordHash hash) {
    }

    private static final Pattern LINE = Pattern.compile("^\\s*([A-Za-z]+)\\s*:\\s*(\\S+)\\s*$");

    private final Map<String, User> users;

    private ConsoleUsers(Map<String, User> users) {
        this.users = users;
    }

    /**
     * Parses {@code lines} (name to {@code <role>:<hash>}) and the single user {@code legacyName} with
     * {@code legacyHash} (when set); throws IllegalArgumentException saying which setting is wrong.
     */
    public static ConsoleUsers parse(Map<String, String> lines, String legacyName, Optional<String> legacyHash) {
        Map<String, User> out = new TreeMap<>();
        legacyHash.ifPresent(h -> out.put(legacyName, new User(legacyName, ConsoleRole.ADMIN,
                hash("steadfast.console.password-hash", h))));
        for (Map.Entry<String, String> e : new TreeMap<>(lines).entrySet()) {
            String where = "steadfast.console.users.\"" + e.getKey() + "\"";
            Matcher m = LINE.matcher(e.getValue());
            ConsoleRole role = m.matches() ? ConsoleRole.of(m.group(1)) : null;
            if (role == null) {
                throw new IllegalArgumentException(where + " must look like <role>:<pbkdf2 hash>, role readonly,"
                        + " operator or admin (make the hash with: java -jar quarkus-run.jar hash-password)");
            }
            if (e.getKey().isBlank() || out.containsKey(e.getKey())) {
                throw new IllegalArgumentException(where + (e.getKey().isBlank() ? " has an empty name"
                        : " names the user of steadfast.console.username a second time"));
            }
            out.put(e.getKey(), new User(e.getKey(), role, hash(where, m.group(2))));
        }
        return new ConsoleUsers(Map.copyOf(out));
    }

    private static PasswordHash hash(String where, String stored) {
        try {
            return PasswordHash.parse(stored);
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(where + " is unusable: " + ex.getMessage(), ex);
        }
    }

    public boolean isEmpty() {
        return users.isEmpty();
    }

    /** The user called {@code name}, if configured. */
    public Optional<User> find(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(users.get(name));
    }

    /** Any configured user's hash: burns the time of a real check for an unknown name. */
    Optional<PasswordHash> anyHash() {
        return users.values().stream().findFirst().map(User::hash);
    }
}
