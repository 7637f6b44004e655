package dev.steadfast.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link LocalPostgres} behind a {@link CountingProxy}: the server's pool and session connections go through the
 * proxy, so a test can count what the server asks of the database. The direct URL (for reads that must not be
 * counted, such as the WAL position) is in the system property {@link #DIRECT_JDBC_URL}.
 */
public class CountedPostgres implements QuarkusTestResourceLifecycleManager {

    public static final String DIRECT_JDBC_URL = "steadfast.test.direct-jdbc-url";

    @Override
    public Map<String, String> start() {
        Map<String, String> direct = new LocalPostgres().start();
        String jdbc = direct.get("quarkus.datasource.jdbc.url");
        String hostPort = jdbc.substring("jdbc:postgresql://".length(), jdbc.lastIndexOf('/'));
        String host = hostPort.substring(0, hostPort.lastIndexOf(':'));
        int port = Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
        CountingProxy proxy;
        try {
            proxy = CountingProxy.start(host, port);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot start the counting proxy", e);
        }
        System.setProperty(DIRECT_JDBC_URL, jdbc);
        Map<String, String> config = new HashMap<>(direct);
        String proxied = "127.0.0.1:" + proxy.port() + "/" + LocalPostgres.DATABASE;
        config.put("quarkus.datasource.reactive.url", "postgresql://" + proxied);
        config.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://" + proxied);
        return config;
    }

    @Override
    public void stop() {
        // the proxy's threads are daemons and end with the JVM; the cluster outlives the run (LocalPostgres)
    }
}
