package dev.steadfast.console.auth;

import java.time.Instant;

/**
 * A console session as its signed cookie carries it: the logged-in user (null before login, or when login is
 * off), the CSRF token every form must send back, and when it ends.
 */
public record Session(String user, String csrf, Instant expiresAt) {

    public boolean loggedIn() {
        return user != null;
    }
}
