package dev.steadfast.admin;

import jakarta.enterprise.context.RequestScoped;

/**
 * What the console's filters learned about the current request before a page resource runs: the logged-in user
 * (null when login is off), the session's CSRF token, and the flash message left by the previous action.
 */
@RequestScoped
public class ConsoleRequest {

    private String user;
    private String csrf = "";
    private String flash;

    public Chrome chrome(String active) {
        return new Chrome(active, user, csrf, flash);
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
}
