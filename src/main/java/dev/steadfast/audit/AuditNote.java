package dev.steadfast.audit;

import jakarta.enterprise.context.RequestScoped;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a resource or service adds to the audit entry of the current request ({@link AuditRecorder} writes it when
 * the response leaves): how many jobs the change touched, and scope the route does not show (a filter sent in a
 * JSON body). Optional: without a note the entry still names the actor, the action and the route's parameters.
 */
@RequestScoped
class AuditNote {

    private Long jobs;
    private final Map<String, Object> scope = new LinkedHashMap<>();
    private final Map<String, Object> formFields = new LinkedHashMap<>();
    private String op;

    /** The change touched {@code n} jobs. */
    public void jobs(long n) {
        this.jobs = n;
    }

    /** Adds {@code key: value} to the entry's scope (null values are left out). */
    public void scope(String key, Object value) {
        if (value != null) {
            scope.put(key, value);
        }
    }

    Long jobs() {
        return jobs;
    }

    Map<String, Object> scope() {
        return scope;
    }

    /** The console form's fields (AuditRecorder reads them before the resource runs). */
    Map<String, Object> formFields() {
        return formFields;
    }

    String op() {
        return op;
    }

    void op(String op) {
        this.op = op;
    }
}
