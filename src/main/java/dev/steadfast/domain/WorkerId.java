package dev.steadfast.domain;

/**
 * A worker's id, as a worker names itself in {@code worker_id} (FETCH, ACK, FAIL, snooze, heartbeat, progress) and
 * an operator addresses it ({@code /ojs/v1/admin/workers/{id}/...}): 1 to {@link #MAX_LENGTH} printable
 * characters ({@link PrintableText}). Any script, hostnames, dots, colons and slashes are fine
 * ({@code "worker-ü-1"}, {@code "host-3.example:4711/2"}); a control character is refused, since the id is stored as
 * the lease holder and shown in logs, events and the console.
 */
public final class WorkerId {

    public static final int MAX_LENGTH = 255;
    /** The request field that carries it. */
    public static final String FIELD = "worker_id";

    private WorkerId() {
    }

    /** The id when well-formed; otherwise 400 invalid_request naming {@code field}. */
    public static String check(String field, String id) {
        return PrintableText.check(field, id, MAX_LENGTH);
    }
}
