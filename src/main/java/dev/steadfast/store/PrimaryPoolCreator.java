package dev.steadfast.store;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.spi.PgDriver;
import io.vertx.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Creates the reactive pool as Quarkus does ({@code PgDriver}, the configured pool options), but with the host of
 * each new connection chosen by {@link PrimaryHosts}, so that {@code steadfast.database.target-session-attrs}
 * applies to the pool (and to Hibernate Reactive, which takes its connections from it). Quarkus' public hook for
 * this: a {@link PgPoolCreator} bean.
 */
@ApplicationScoped
public class PrimaryPoolCreator implements PgPoolCreator {

    private final PrimaryHosts hosts;

    public PrimaryPoolCreator(PrimaryHosts hosts) {
        this.hosts = hosts;
    }

    @Override
    public Pool create(Input input) {
        var list = input.pgConnectOptionsList();
        return PgDriver.INSTANCE.createPool(input.vertx(), () -> hosts.choose(input.vertx(), list), input.poolOptions());
    }
}
