package dev.steadfast.console;

import dev.steadfast.console.auth.ConsoleRole;
import dev.steadfast.console.auth.Session;
import jakarta.enterprise.context.RequestScoped;

/**
 * What the console's filters learned about the current request before a page resource runs: the logged-in user
 * (null when login is off), the session's CSRF token, and the flash message left by the previous action; and
 * what the response must do with the session cookie (issue a new one, or end it).
 */
@RequestScoped
public class ConsoleRequest {

    private String user;
    private String csrf = "";
    private String flash;
    private Session issue;
    private boolean end;
    private ConsoleRole role;

    public Chrome chrome(String active) {
        return new Chrome(active, user, csrf, flash, role);
    }

    /** The role of the request's identity (null: nobody logged in). */
    public ConsoleRole role() {
        return role;
    }

    void role(ConsoleRole role) {
        this.role = role;
    }

    /** Who did it, for events and the log: {@code console:<user>}, or {@code console} when login is off. */
    public String actor() {
        return user == null ? "console" : "console:" + user;
    }

    public String user() {
        return user;
    }

    public String csrf() {
        return csrf;
    }

    public String flash() {
        return flash;
    }

    void session(String user, String csrf) {
        this.user = user;
        this.csrf = csrf;
    }

    void flash(String flash) {
        this.flash = flash;
    }

    /** Have the response set this session's cookie (a new anonymous session, or a login). */
    public void issue(Session s) {
        this.issue = s;
        session(s.user(), s.csrf());
    }

    Session issued() {
        return issue;
    }

    /** Have the response clear the session cookie (logout). */
    public void end() {
        this.end = true;
    }

    boolean ended() {
        return end;
    }
}
