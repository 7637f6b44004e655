package dev.steadfast.testsupport;

import io.quarkus.test.common.QuarkusTestResource;

/** Every @QuarkusTest runs against the local PostgreSQL of {@link LocalPostgres}. */
@QuarkusTestResource(LocalPostgres.class)
public final class Database {

    private Database() {
    }
}
