package dev.steadfast.console.auth;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A console user's role, each including the ones before it: {@code readonly} sees every page, {@code operator}
 * also acts on jobs, dead letters, queues, workflows, error groups and cron schedules, {@code admin} also deletes
 * and changes settings ({@link ConsoleAccess} says which action needs which).
 */
public enum ConsoleRole {
    READONLY, OPERATOR, ADMIN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The role named {@code s} (case-insensitive, trimmed), or null. */
    public static ConsoleRole of(String s) {
        for (ConsoleRole r : values()) {
            if (s != null && r.wire().equalsIgnoreCase(s.trim())) {
                return r;
            }
        }
        return null;
    }

    /** Whether this role includes {@code other}. */
    public boolean includes(ConsoleRole other) {
        return compareTo(other) >= 0;
    }

    /** The role names a security identity of this role carries: its own and every one it includes. */
    public Set<String> names() {
        Set<String> out = new TreeSet<>();
        for (ConsoleRole r : values()) {
            if (includes(r)) {
                out.add(r.wire());
            }
        }
        return out;
    }

    /** The highest role among {@code names} (an identity's roles), or null when none is a console role. */
    public static ConsoleRole highest(Set<String> names) {
        ConsoleRole best = null;
        for (String n : names) {
            ConsoleRole r = of(n);
            if (r != null && (best == null || r.includes(best))) {
                best = r;
            }
        }
        return best;
    }
}
