package dev.steadfast.http;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/**
 * A route for the tests only (src/test is deployed with the application in @QuarkusTest): it waits for a database
 * round trip, then fails, so ErrorMapper logs a 500 after an asynchronous hop (LogContextTest).
 */
@Path("/test-only/fail-after-query")
@RolesAllowed(Roles.ADMIN)
public class FailingAfterQueryResource {

    private final Pool pool;

    public FailingAfterQueryResource(Pool pool) {
        this.pool = pool;
    }

    @GET
    public Uni<String> fail() {
        return pool.query("SELECT 1").execute().map(rows -> {
            throw new IllegalStateException("failing on purpose after a query");
        });
    }
}
