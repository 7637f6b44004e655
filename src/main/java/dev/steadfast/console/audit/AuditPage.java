package dev.steadfast.console.audit;

import dev.steadfast.audit.AuditLog;
import dev.steadfast.console.Chrome;
import dev.steadfast.console.ConsoleParams;
import dev.steadfast.console.ConsoleRequest;
import dev.steadfast.console.Format;
import dev.steadfast.console.Pages;
import dev.steadfast.model.AuditFilter;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;

/**
 * {@code /admin/audit}: the audit log newest first, {@value #PAGE_SIZE} entries a page (keyset: "Older" carries
 * the last id shown), filtered by actor and action (exact) and a time range (UTC, from inclusive, to exclusive).
 * Every role may read it; nobody can change it from here.
 */
@Path("/admin/audit")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class AuditPage {

    static final int PAGE_SIZE = 50;

    private final AuditLog audit;
    private final ConsoleRequest request;
    private final Clock clock;

    public AuditPage(AuditLog audit, ConsoleRequest request, Clock clock) {
        this.audit = audit;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Uni<TemplateInstance> page(@QueryParam("actor") String actor, @QueryParam("action") String action,
                                      @QueryParam("since") String since, @QueryParam("until") String until,
                                      @QueryParam("after") String after) {
        String who = ConsoleParams.text(actor);
        String what = ConsoleParams.text(action);
        Instant from = ConsoleParams.time("since", since);
        Instant to = ConsoleParams.time("until", until);
        String cursor = ConsoleParams.text(after);
        Chrome chrome = request.chrome("audit");
        Instant now = clock.instant();
        boolean filtered = who != null || what != null || from != null || to != null;
        return audit.page(new AuditFilter(who, what, from, to), cursor, PAGE_SIZE).map(p -> Pages.audit(chrome,
                new AuditView(who == null ? "" : who, what == null ? "" : what, Format.input(from), Format.input(to),
                        filtered, p.entries().stream().map(r -> AuditView.Line.of(r, now)).toList(),
                        p.next() == null ? null : AuditView.href(who, what, from, to, p.next()),
                        cursor == null ? null : AuditView.href(who, what, from, to, null))));
    }
}
