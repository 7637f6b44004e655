package dev.steadfast.console;

/**
 * What every console page shows around its content: which navigation entry is current, who is logged in (null
 * when login is off), the CSRF token every form carries, and a one-time message from the previous action.
 */
public record Chrome(String active, String user, String csrf, String flash) {
}
