package dev.steadfast.tools.faults;

import dev.steadfast.tools.Exit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The options of {@code faults}, with their defaults (see {@link #USAGE}). */
final class FaultsOptions {

    static final String FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

    static final String USAGE = "usage: java -jar tools/target/steadfast-tools.jar faults [--instances 3] [--jobs 3000]"
            + " [--seconds 30] [--producers 8] [--workers 6] [--slow-workers 2] [--lease-ms 5000] [--slow-lease-ms 1000]"
            + " [--slow-ms 1500] [--work-ms 5] [--fuzz-requests 1500] [--drain-seconds 120]"
            + " [--base-port 18181] [--db steadfast_faults] [--jar target/quarkus-app/quarkus-run.jar]"
            + " [--heap -Xmx384m] [--jvm-option OPTION (repeatable: more options for every instance's JVM)]"
            + " [--logs target/faults] [--no-kill] [--no-db-restart] [--no-upgrade]"
            + " [--no-idle-transaction]"
            + " [--flood 1000 (unauthenticated requests to distinct paths)]"
            + " [--skew +20s (instance 1's clock, with libfaketime)] [--clock database|system]"
            + " [--pgbouncer PORT (the instances' pool through PgBouncer in transaction mode on that port)]"
            + " [--failover [kill] (on scripts/failover-cluster's formation; the primary is failed over instead of the"
            + " PostgreSQL restart; kill: SIGKILL of the primary instead of a planned failover)]";

    String jar = "target/quarkus-app/quarkus-run.jar";
    String db = "steadfast_faults";
    int instances = 3;
    int basePort = 18181;
    int jobs = 3000;
    int seconds = 30;
    int producers = 8;
    int workers = 6;
    int slowWorkers = 2;
    int leaseMs = 5000;
    int slowLeaseMs = 1000;
    int slowMs = 1500;
    int workMs = 5;
    int fuzzRequests = 1500;
    int drainSeconds = 120;
    int pgbouncer;
    /** null: the scripts/local-pg cluster; "planned" or "kill": the pg_auto_failover formation, failed over at 70%. */
    String failover;
    boolean kill = true;
    boolean restartDb = true;
    boolean upgrade = true;
    boolean idleTransaction = true;
    int flood = 1000;
    String heap = "-Xmx384m";
    /** More options for every instance's JVM, after {@link #heap}. */
    final List<String> jvmOptions = new ArrayList<>();
    String skew;
    String clock;
    Path logs = Path.of("target/faults");

    static FaultsOptions parse(String[] args) {
        FaultsOptions o = new FaultsOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--jar" -> o.jar = value(args, ++i);
                case "--db" -> o.db = value(args, ++i);
                case "--instances" -> o.instances = number(args, ++i);
                case "--base-port" -> o.basePort = number(args, ++i);
                case "--jobs" -> o.jobs = number(args, ++i);
                case "--seconds" -> o.seconds = number(args, ++i);
                case "--producers" -> o.producers = number(args, ++i);
                case "--workers" -> o.workers = number(args, ++i);
                case "--slow-workers" -> o.slowWorkers = number(args, ++i);
                case "--lease-ms" -> o.leaseMs = number(args, ++i);
                case "--slow-lease-ms" -> o.slowLeaseMs = number(args, ++i);
                case "--slow-ms" -> o.slowMs = number(args, ++i);
                case "--work-ms" -> o.workMs = number(args, ++i);
                case "--fuzz-requests" -> o.fuzzRequests = number(args, ++i);
                case "--drain-seconds" -> o.drainSeconds = number(args, ++i);
                case "--heap" -> o.heap = value(args, ++i);
                case "--jvm-option" -> o.jvmOptions.add(value(args, ++i));
                case "--logs" -> o.logs = Path.of(value(args, ++i));
                case "--skew" -> o.skew = value(args, ++i);
                case "--clock" -> o.clock = value(args, ++i);
                case "--pgbouncer" -> o.pgbouncer = number(args, ++i);
                case "--failover" -> {
                    boolean kill = i + 1 < args.length && args[i + 1].equals("kill");
                    o.failover = kill ? "kill" : "planned";
                    i += kill ? 1 : 0;
                }
                case "--no-kill" -> o.kill = false;
                case "--no-db-restart" -> o.restartDb = false;
                case "--no-upgrade" -> o.upgrade = false;
                case "--no-idle-transaction" -> o.idleTransaction = false;
                case "--flood" -> o.flood = number(args, ++i);
                default -> throw Exit.usage(USAGE, a.equals("--help"));
            }
        }
        if (o.instances < 1 || o.instances > 8 || o.jobs < 1 || o.seconds < 1) {
            throw new Exit(2, "faults: --instances must be 1-8, --jobs and --seconds positive");
        }
        if (o.skew != null && (o.instances < 2 || !Files.exists(Path.of(FAKETIME)))) {
            throw new Exit(2, "faults: --skew needs two instances or more and libfaketime (Debian: apt-get install"
                    + " libfaketime)");
        }
        if (o.failover != null && o.pgbouncer > 0) {
            throw new Exit(2, "faults: --failover and --pgbouncer do not go together");
        }
        return o;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new Exit(2, "faults: missing value for " + args[i - 1]);
        }
        return args[i];
    }

    private static int number(String[] args, int i) {
        try {
            return Integer.parseInt(value(args, i));
        } catch (NumberFormatException e) {
            throw new Exit(2, "faults: " + args[i - 1] + " takes an integer, got '" + args[i] + "'");
        }
    }
}
