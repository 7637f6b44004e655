package dev.steadfast.store;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.spi.PgDriver;
import io.vertx.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Creates the reactive pool as Quarkus does ({@code PgDriver}, the configured pool options), but with the host of
 * each new connection chosen by {@link PrimaryHosts}, so that {@code steadfast.database.target-session-attrs}
 * applies to the pool (and to Hibernate Reactive, which takes its connections from it). Quarkus' public hook for
 * this: a {@link PgPoolCreator} bean.
 *
 * <p>It also raises the client's prepared-statement cache SQL limit to {@link #STATEMENT_CACHE_SQL_LIMIT}. The Vert.x
 * client caches (prepares once per connection) only statements shorter than 2,048 characters by default, and
 * Quarkus does not expose the setting; a longer statement is prepared anew on every execution, in a round trip of
 * its own that PostgreSQL counts as a transaction. COMPLETE (2,153 characters) and RECORD_FAILURES (5,826) had
 * grown past it, which cost every ACK and FAIL batch that extra round trip and commit (W2: 0.74 commits per job
 * instead of 0.52). {@code StatementCacheTest} checks every named statement fits under the limit.
 */
@ApplicationScoped
class PrimaryPoolCreator implements PgPoolCreator {

    /** The longest SQL text the client caches as a prepared statement per connection. */
    public static final int STATEMENT_CACHE_SQL_LIMIT = 16_384;

    private final PrimaryHosts hosts;

    public PrimaryPoolCreator(PrimaryHosts hosts) {
        this.hosts = hosts;
    }

    @Override
    public Pool create(Input input) {
        List<PgConnectOptions> list = input.pgConnectOptionsList();
        list.forEach(o -> o.setPreparedStatementCacheSqlLimit(STATEMENT_CACHE_SQL_LIMIT));
        return PgDriver.INSTANCE.createPool(input.vertx(), () -> hosts.choose(list), input.poolOptions());
    }
}
