package dev.steadfast.console;

import dev.steadfast.console.auth.ConsoleRole;

/**
 * What every console page shows around its content: which navigation entry is current, who is logged in (null
 * when login is off), the CSRF token every form carries, a one-time message from the previous action, and the
 * role of the request's identity (null: nobody logged in).
 *
 * <p>Templates show an action only when the role may take it: {@code {#if chrome.canAct}} around every action
 * form or button (retry, cancel, pause, bulk actions...: the {@code operator} role and above), and
 * {@code {#if chrome.canAdmin}} around what only an {@code admin} may do (deletes, settings). The server refuses
 * the same actions anyway (auth.ConsoleAccess, enforced by ConsoleFilters); hiding them keeps a read-only user from
 * meeting a 403.
 */
public record Chrome(String active, String user, String csrf, String flash, ConsoleRole role) {

    /** Without a role: shows no action (the error page's fallback when no request is at hand). */
    public Chrome(String active, String user, String csrf, String flash) {
        this(active, user, csrf, flash, null);
    }

    /** Whether the page may show actions: retry, cancel, pause, bulk actions (operator and admin). */
    public boolean canAct() {
        return role != null && role.includes(ConsoleRole.OPERATOR);
    }

    /** Whether the page may show what only an admin may do: deletes, settings. */
    public boolean canAdmin() {
        return role == ConsoleRole.ADMIN;
    }

    /** The role's name for the header, or null. */
    public String roleName() {
        return role == null ? null : role.wire();
    }
}
