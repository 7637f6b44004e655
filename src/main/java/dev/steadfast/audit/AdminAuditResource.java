package dev.steadfast.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Roles;
import dev.steadfast.http.Timestamps;
import dev.steadfast.model.AuditFilter;
import dev.steadfast.model.AuditRow;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /ojs/v1/admin/audit}: the audit log newest first in keyset pages ({@code limit}, {@code cursor}),
 * filtered by {@code actor} and {@code action} (exact) and a time range ({@code since} inclusive, {@code until}
 * exclusive, RFC 3339). Readable by the {@code readonly} and {@code admin} roles, like every admin view.
 */
@Path("/ojs/v1/admin/audit")
class AdminAuditResource {

    private final AuditLog audit;
    private final ObjectMapper json;

    public AdminAuditResource(AuditLog audit, ObjectMapper json) {
        this.audit = audit;
        this.json = json;
    }

    @GET
    @RolesAllowed({Roles.READONLY, Roles.ADMIN})
    public Uni<Response> list(@QueryParam("actor") String actor, @QueryParam("action") String action,
                              @QueryParam("since") String since, @QueryParam("until") String until,
                              @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        int n = Params.integer("limit", limit, 50, 1, 200);
        AuditFilter f = new AuditFilter(blank(actor), blank(action), time("since", since),
                time("until", until));
        return audit.page(f, cursor, n).map(p -> Responses.ok(json,
                new Entries(p.entries().stream().map(Entry::of).toList(), p.next())));
    }

    static Instant time(String name, String value) {
        return value == null || value.isBlank() ? null : Params.requiredTimestamp(name, value);
    }

    static String blank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** One entry on the wire; {@code scope} is the stored JSON object as it is. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Entry(String id, String at, String actor, String via, String action,
                 @JsonRawValue String scope, @JsonInclude(JsonInclude.Include.ALWAYS) Long jobs,
                 @JsonInclude(JsonInclude.Include.ALWAYS) String client, String outcome, int status) {

        static Entry of(AuditRow r) {
            return new Entry(Long.toString(r.id()), Timestamps.format(r.at()), r.actor(), r.via(), r.action(),
                    r.scope(), r.jobs(), r.client(), r.outcome(), r.status());
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Entries(List<Entry> entries, @JsonInclude(JsonInclude.Include.ALWAYS) String nextCursor) {
    }
}
