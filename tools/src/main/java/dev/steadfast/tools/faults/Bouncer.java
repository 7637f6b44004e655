package dev.steadfast.tools.faults;

import dev.steadfast.tools.Exit;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code --pgbouncer PORT}: Debian's PgBouncer ({@code /usr/sbin/pgbouncer}) in transaction mode on
 * {@code 127.0.0.1:PORT} in front of the {@code scripts/local-pg} cluster, run in the foreground for the length of
 * the run (its log in {@code <logs>/pgbouncer.log}). As root it runs as the {@code postgres} user, as the cluster
 * does (PgBouncer refuses to run as root). The settings the server needs behind it are in
 * docs/operations/poolers.md; {@link Instances} sets them.
 */
final class Bouncer implements AutoCloseable {

    static final String BINARY = "/usr/sbin/pgbouncer";

    private final Process process;
    private final Path dir;

    private Bouncer(Process process, Path dir) {
        this.process = process;
        this.dir = dir;
    }

    /** Starts PgBouncer on {@code port}, forwarding every database to {@code serverHostPort}; waits until it listens. */
    static Bouncer start(int port, String serverHostPort, Path logs) throws IOException, InterruptedException {
        if (!Files.isExecutable(Path.of(BINARY))) {
            throw new Exit(2, "faults: --pgbouncer needs PgBouncer (Debian: apt-get install pgbouncer)");
        }
        String host = serverHostPort.substring(0, serverHostPort.lastIndexOf(':'));
        String serverPort = serverHostPort.substring(serverHostPort.lastIndexOf(':') + 1);
        Path dir = Files.createTempDirectory("steadfast-pgbouncer-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.writeString(dir.resolve("users.txt"), "\"steadfast\" \"steadfast\"\n");
        Files.writeString(dir.resolve("pgbouncer.ini"), String.join("\n",
                "[databases]",
                "* = host=" + host + " port=" + serverPort,
                "[pgbouncer]",
                "listen_addr = 127.0.0.1",
                "listen_port = " + port,
                "unix_socket_dir =",
                "auth_type = trust",
                "auth_file = " + dir.resolve("users.txt"),
                "pool_mode = transaction",
                "default_pool_size = 20",
                "max_client_conn = 1000",
                "ignore_startup_parameters = extra_float_digits",
                ""));
        for (String f : List.of("users.txt", "pgbouncer.ini")) {
            Files.setPosixFilePermissions(dir.resolve(f), PosixFilePermissions.fromString("rw-r--r--"));
        }
        List<String> cmd = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(List.of(BINARY, dir.resolve("pgbouncer.ini").toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve("pgbouncer.log").toFile())).start();
        Bouncer b = new Bouncer(p, dir);
        long until = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < until) {
            if (!p.isAlive()) {
                b.close();
                throw new Exit(2, "faults: PgBouncer exited; see " + logs.resolve("pgbouncer.log"));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return b;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        b.close();
        throw new Exit(2, "faults: PgBouncer did not listen on port " + port);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            for (String f : List.of("users.txt", "pgbouncer.ini")) {
                Files.deleteIfExists(dir.resolve(f));
            }
            Files.deleteIfExists(dir);
        } catch (IOException | InterruptedException e) {
            // a leftover temporary directory is harmless
        }
    }
}
