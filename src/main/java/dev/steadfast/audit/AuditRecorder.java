package dev.steadfast.audit;

import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.MultivaluedMap;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;
import jakarta.ws.rs.Priorities;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.WithFormRead;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

/**
 * Records every change {@link AuditedRequests} names, as its response leaves: the actor is the request's Quarkus
 * Security identity (the console user of the session, or the API token's name), the action comes from the route and
 * the resource method, the scope from the route's parameters, the query and the console form's fields (never the
 * CSRF token or a password), plus what the resource noted ({@link AuditNote}: the jobs touched, a JSON body's
 * filter). Refused attempts by a known actor are recorded too (outcome {@code refused}); a request without an
 * identity (401, a console form without a login) is not, so nobody can fill the log without credentials.
 *
 * <p>The response waits for the entry (the filter answers a Uni): a client that saw its change succeed can read
 * its entry at once. When writing the entry fails, the change has already happened: the failure is logged at ERROR
 * with the entry, and the response goes out as it was.
 */
class AuditRecorder {

    private static final Logger LOG = Logger.getLogger(AuditRecorder.class);
    private static final Set<String> SECRET_FIELDS = Set.of("_csrf", "password", "token");
    private static final List<String> KNOWN_FIELDS = List.of("op", "id", "queue", "type", "error_type", "state", "tag",
            "q", "since", "until", "from", "to", "name", "filter", "args", "concurrency", "rate");

    private final AuditLog log;
    private final AuditNote note;
    private final SecurityIdentity identity;
    private final HttpServerRequest http;

    public AuditRecorder(AuditLog log, AuditNote note, SecurityIdentity identity, HttpServerRequest http) {
        this.log = log;
        this.note = note;
        this.identity = identity;
        this.http = http;
    }

    /**
     * Keeps the console form's fields for the entry (the form is read here, before the resource; it is gone by the
     * time the response leaves).
     */
    @WithFormRead
    @ServerRequestFilter(priority = Priorities.USER)
    public void fields(ResteasyReactiveContainerRequestContext req) {
        if (AuditedRequests.audited(req.getMethod(), req.getUriInfo().getPath())) {
            note.op(form(req, note.formFields()));
        }
    }

    @ServerResponseFilter
    public Uni<Void> record(ContainerRequestContext req, ContainerResponseContext res, ResourceInfo resource) {
        String path = req.getUriInfo().getPath();
        if (!AuditedRequests.audited(req.getMethod(), path) || !AuditedRequests.recorded(path, res.getStatus())
                || identity.isAnonymous()) {
            return Uni.createFrom().voidItem();
        }
        Method m = resource == null ? null : resource.getResourceMethod();
        Map<String, Object> scope = new LinkedHashMap<>();
        req.getUriInfo().getPathParameters().forEach((k, v) -> scope.put(k, v.size() == 1 ? v.get(0) : v));
        fields(req.getUriInfo().getQueryParameters(), scope);
        scope.putAll(note.formFields());
        String op = note.op();
        scope.putAll(note.scope());
        String action = AuditedRequests.action(template(resource, path), m == null ? req.getMethod().toLowerCase()
                : m.getName(), op, (String) scope.get("action"));
        Long jobs = note.jobs();
        if (jobs == null && res.getStatus() < 400 && scope.containsKey("id")
                && Set.of("jobs", "dead-letter").contains(AuditedRequests.area(template(resource, path)))) {
            jobs = 1L; // a single job's route
        }
        SocketAddress remote = http.remoteAddress();
        AuditEntry e = new AuditEntry(identity.getPrincipal().getName(), AuditedRequests.via(path), action, scope,
                jobs, remote == null ? null : remote.hostAddress(), res.getStatus());
        return log.record(e).onFailure().invoke(f -> LOG.errorf(f, "could not write the audit entry of %s %s: %s",
                req.getMethod(), path, e)).onFailure().recoverWithNull();
    }

    /**
     * The console form's fields into {@code scope} (secrets left out); answers the {@code op} field, or null. The
     * names are the form's own when it was parsed into form data, else the fields console forms use.
     */
    private static String form(ResteasyReactiveContainerRequestContext req, Map<String, Object> scope) {
        ResteasyReactiveRequestContext ctx = (ResteasyReactiveRequestContext) req.getServerRequestContext();
        Iterable<String> names = ctx.getFormData() != null ? ctx.getFormData() : KNOWN_FIELDS;
        String op = null;
        for (String name : names) {
            if (SECRET_FIELDS.contains(name) || name.equals("confirm")) {
                continue;
            }
            Object raw = ctx.getFormParameter(name, false, false);
            List<String> values = new ArrayList<>();
            if (raw instanceof Collection<?> c) {
                c.forEach(v -> values.add(String.valueOf(v)));
            } else if (raw != null) {
                values.add(String.valueOf(raw));
            }
            values.removeIf(String::isEmpty);
            if (name.equals("op") && values.size() == 1) {
                op = values.get(0);
            } else if (!values.isEmpty()) {
                scope.put(name, values.size() == 1 ? values.get(0) : values);
            }
        }
        return op;
    }

    private static void fields(MultivaluedMap<String, String> query, Map<String, Object> scope) {
        query.forEach((k, v) -> {
            if (!SECRET_FIELDS.contains(k) && !v.isEmpty()) {
                scope.put(k, v.size() == 1 ? v.get(0) : v);
            }
        });
    }

    /** The route's {@code @Path} template (class and method), or the request path when no resource matched. */
    static String template(ResourceInfo resource, String path) {
        if (resource == null || resource.getResourceClass() == null) {
            return path;
        }
        Path base = resource.getResourceClass().getAnnotation(Path.class);
        Path sub = resource.getResourceMethod() == null ? null : resource.getResourceMethod().getAnnotation(Path.class);
        return (base == null ? "" : base.value()) + (sub == null ? "" : "/" + sub.value());
    }
}
