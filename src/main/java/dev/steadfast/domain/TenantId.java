package dev.steadfast.domain;

import java.util.regex.Pattern;

/**
 * A tenant's id (ojs-multi-tenancy.md 5.2): a non-empty string matching {@code ^[a-zA-Z0-9][a-zA-Z0-9._:-]*$}, at
 * most {@link #MAX_LENGTH} characters, so it can never carry a NUL byte, a space or a control character into the
 * database or a log line. Where it comes from (meta.tenant_id, the X-OJS-Tenant header) and how the two agree is
 * {@link #resolve}'s rule.
 */
public final class TenantId {

    public static final Pattern FORM = Pattern.compile("^[a-zA-Z0-9][a-zA-Z0-9._:-]*$");
    public static final int MAX_LENGTH = 128;
    /**
     * The default tenant (ojs-multi-tenancy 15.3): the configuration, under this id, of the limits that apply to jobs
     * without a tenant. Not a tenant a job can name (it does not match {@link #FORM}).
     */
    public static final String DEFAULT = "_default";
    /** The request header naming the caller's tenant (ojs-multi-tenancy 5.3). */
    public static final String HEADER = "X-OJS-Tenant";

    private TenantId() {
    }

    /** The id when well-formed; otherwise 400 invalid_request naming {@code field}. */
    public static String check(String field, String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_LENGTH || !FORM.matcher(id).matches()) {
            String shown = id == null ? "null" : id.length() > 40 ? id.substring(0, 40) + "..." : id;
            throw OjsException.invalidField(field, "'" + field + "' must be 1 to " + MAX_LENGTH
                    + " characters matching " + FORM.pattern() + ".", FORM.pattern() + ", at most " + MAX_LENGTH
                    + " characters", shown.replace('\u0000', '?'));
        }
        return id;
    }

    /** A tenant whose configuration may be read or written: a well-formed id ({@link #check}) or {@link #DEFAULT}. */
    public static String checkConfigured(String field, String id) {
        return DEFAULT.equals(id) ? id : check(field, id);
    }

    /** The tenant a request's X-OJS-Tenant header (or gRPC x-ojs-tenant) names, checked; null when it sent none. */
    public static String header(String value) {
        return value == null ? null : check(HEADER, value);
    }

    /**
     * The tenant of a job: the body's meta.tenant_id and the header's value, each checked; the header fills in a
     * missing body value, and a body value that differs from the header is refused with 400 (ojs-multi-tenancy 5.3).
     * Null when neither names one.
     */
    public static String resolve(String fromBody, String fromHeader) {
        String body = fromBody == null ? null : check("meta.tenant_id", fromBody);
        String header = header(fromHeader);
        if (body != null && header != null && !body.equals(header)) {
            throw OjsException.invalidField("meta.tenant_id", "meta.tenant_id '" + body + "' differs from the "
                    + HEADER + " header '" + header + "'; send one tenant.", header, body);
        }
        return body != null ? body : header;
    }
}
