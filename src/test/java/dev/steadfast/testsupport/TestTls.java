package dev.steadfast.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A self-signed certificate for localhost, made once per test JVM with the JDK's keytool: a PKCS12 key store for the
 * server (the default TLS configuration of Quarkus's TLS registry, which the HTTP server serves HTTPS with) and the
 * certificate as PEM for clients to trust.
 */
public final class TestTls {

    public static final String PASSWORD = "steadfast-test";

    /**
     * Where the files are, as a system property: the test profile (read when Quarkus starts) and the test itself run
     * in different class loaders of one JVM, and must see the same certificate.
     */
    private static final String DIR = "steadfast.test.tls-dir";

    private TestTls() {
    }

    /** The key store (PKCS12, {@link #PASSWORD}). */
    public static Path keyStore() {
        return make().resolve("server.p12");
    }

    /** The server's certificate, PEM. */
    public static Path certificate() {
        return make().resolve("server.crt");
    }

    /** The configuration that turns HTTPS on beside HTTP, on a free port of its own (the HTTP port stays). */
    public static Map<String, String> serverConfig() {
        return Map.of("quarkus.tls.key-store.p12.path", keyStore().toString(),
                "quarkus.tls.key-store.p12.password", PASSWORD,
                "quarkus.http.test-ssl-port", "0");
    }

    private static Path make() {
        synchronized (System.getProperties()) {
            String made = System.getProperty(DIR);
            if (made != null) {
                return Path.of(made);
            }
            try {
                Path d = Files.createTempDirectory("steadfast-tls");
                String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
                run(List.of(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                        "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-validity", "2",
                        "-storetype", "PKCS12", "-keystore", d.resolve("server.p12").toString(), "-storepass",
                        PASSWORD));
                run(List.of(keytool, "-exportcert", "-rfc", "-alias", "server", "-keystore",
                        d.resolve("server.p12").toString(), "-storepass", PASSWORD, "-file",
                        d.resolve("server.crt").toString()));
                System.setProperty(DIR, d.toString());
                return d;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0) {
                throw new IOException(command.get(1) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
