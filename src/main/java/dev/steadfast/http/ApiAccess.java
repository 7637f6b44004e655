package dev.steadfast.http;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which roles may call which /ojs route (pure: method and normalized path in, roles out), following the
 * permission matrix of ojs-security.md 7.5 with a read-only role for dashboards:
 *
 * <ul>
 *   <li>public: {@code GET /ojs/manifest} (it says how to authenticate) and {@code GET /ojs/v1/health};</li>
 *   <li>{@code producer}: PUSH, batch and bulk PUSH, INFO and a job's progress, CANCEL, ACTIVATE, and a
 *       workflow's create, get and cancel;</li>
 *   <li>{@code worker}: every {@code POST /ojs/v1/workers/...} (fetch, ack, ack/batch, nack, heartbeat, beat,
 *       snooze, progress), {@code PUT /ojs/v1/jobs/{id}/progress} and the job-path ACK and NACK
 *       ({@code POST /ojs/v1/jobs/{id}/ack}, {@code .../nack}); a job's checkpoint, to save, read and delete it
 *       ({@code /ojs/v1/jobs/{id}/checkpoint}, the JavaScript SDK's {@code /ojs/v1/checkpoints/{id}} and
 *       {@code .../resume}: a handler reads its job's checkpoint when it starts);</li>
 *   <li>{@code readonly}: every GET (jobs, queues, stats, dead letters, events, retry policies, admin views);</li>
 *   <li>{@code admin}: everything, including every change under /ojs/v1/admin, queue pause and resume, the
 *       dead-letter actions and every change to cron schedules (a schedule enqueues jobs for ever).</li>
 * </ul>
 *
 * Anything not named above needs {@code admin}. Quarkus Security enforces the matrix: each endpoint carries its roles
 * as {@code @RolesAllowed} (EndpointRolesTest holds every one to this table), an endpoint added without them needs
 * {@code admin} ({@code quarkus.security.jaxrs.default-roles-allowed}), and {@link ApiAuth} lets the public routes
 * through unauthenticated.
 */
public final class ApiAccess {

    /** The roles a token may carry. */
    public enum Role {
        PRODUCER, WORKER, ADMIN, READONLY;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The role named {@code s} (case-insensitive), or null. */
        public static Role of(String s) {
            for (Role r : values()) {
                if (r.wire().equalsIgnoreCase(s.trim())) {
                    return r;
                }
            }
            return null;
        }
    }

    private static final Pattern JOB = Pattern.compile("^/ojs/v1/jobs/[^/]+$");
    private static final Pattern JOB_PROGRESS = Pattern.compile("^/ojs/v1/jobs/[^/]+/progress$");
    private static final Pattern WORKFLOW = Pattern.compile("^/ojs/v1/workflows/[^/]+$");
    private static final Pattern ACTIVATE = Pattern.compile("^/ojs/v1/jobs/[^/]+/activate$");
    private static final Pattern JOB_ANSWER = Pattern.compile("^/ojs/v1/jobs/[^/]+/(ack|nack)$");
    private static final Pattern JOB_CHECKPOINT = Pattern.compile("^/ojs/v1/jobs/[^/]+/checkpoint$");
    private static final Pattern SDK_CHECKPOINT = Pattern.compile("^/ojs/v1/checkpoints/[^/]+$");
    private static final Pattern SDK_RESUME = Pattern.compile("^/ojs/v1/checkpoints/[^/]+/resume$");
    private static final Pattern WORKER_OP = Pattern.compile("^/ojs/v1/workers/(fetch|ack|ack/batch|nack|heartbeat|beat|snooze|progress)$");

    private static final Set<Role> PRODUCER_READ = roles(Role.PRODUCER, Role.READONLY, Role.ADMIN);
    private static final Set<Role> READ = roles(Role.READONLY, Role.ADMIN);
    private static final Set<Role> PRODUCE = roles(Role.PRODUCER, Role.ADMIN);
    private static final Set<Role> WORK = roles(Role.WORKER, Role.ADMIN);
    private static final Set<Role> WORK_READ = roles(Role.WORKER, Role.READONLY, Role.ADMIN);
    private static final Set<Role> ADMIN = roles(Role.ADMIN);

    private ApiAccess() {
    }

    private static Set<Role> roles(Role first, Role... rest) {
        return Collections.unmodifiableSet(EnumSet.of(first, rest));
    }

    /** True when the route needs no token. */
    public static boolean isPublic(String method, String path) {
        return read(method) && (path.equals("/ojs/manifest") || path.equals("/ojs/v1/health"));
    }

    /** The roles allowed to call {@code method path}; never empty ({@code admin} is always among them). */
    public static Set<Role> allowed(String method, String path) {
        String m = method.toUpperCase(Locale.ROOT);
        if (read(m) && (JOB_CHECKPOINT.matcher(path).matches() || SDK_RESUME.matcher(path).matches())) {
            return WORK_READ;
        }
        if (!read(m) && (JOB_CHECKPOINT.matcher(path).matches()
                || SDK_CHECKPOINT.matcher(path).matches() && (m.equals("POST") || m.equals("DELETE")))) {
            return WORK;
        }
        if (read(m)) {
            return JOB.matcher(path).matches() || JOB_PROGRESS.matcher(path).matches()
                    || WORKFLOW.matcher(path).matches() ? PRODUCER_READ : READ;
        }
        if (m.equals("POST") && (path.equals("/ojs/v1/jobs") || path.equals("/ojs/v1/jobs/batch")
                || path.equals("/ojs/v1/jobs/bulk") || ACTIVATE.matcher(path).matches()
                || path.equals("/ojs/v1/workflows"))
                || m.equals("DELETE") && JOB.matcher(path).matches() && !path.equals("/ojs/v1/jobs/batch")
                && !path.equals("/ojs/v1/jobs/bulk")
                || m.equals("DELETE") && WORKFLOW.matcher(path).matches()) {
            return PRODUCE;
        }
        if (m.equals("POST") && (WORKER_OP.matcher(path).matches() || JOB_ANSWER.matcher(path).matches())
                || m.equals("PUT") && JOB_PROGRESS.matcher(path).matches()) {
            return WORK;
        }
        return ADMIN;
    }

    private static boolean read(String method) {
        return method.equalsIgnoreCase("GET") || method.equalsIgnoreCase("HEAD");
    }
}
