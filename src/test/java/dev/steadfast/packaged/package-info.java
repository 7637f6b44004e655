/**
 * The {@code @QuarkusIntegrationTest} suite ({@code *IT}, run by maven-failsafe-plugin in {@code ./mvnw verify}):
 * each class starts the packaged application (target/quarkus-app, or the native executable with -Dnative) in the
 * prod profile against the local PostgreSQL of {@code testsupport.LocalPostgres}, whose datasource settings are
 * passed to the launched process, and talks to it over HTTP only. The reset hook is off in prod, so every test
 * works in queues of its own instead of emptying the database.
 */
package dev.steadfast.packaged;
