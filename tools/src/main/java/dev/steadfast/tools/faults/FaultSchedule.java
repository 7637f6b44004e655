package dev.steadfast.tools.faults;

import dev.steadfast.tools.fuzz.Fuzzer;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The faults, at fixed points of the load's time: at 10% the fuzzer starts against the last instance (its
 * output in {@code <logs>/fuzz.log}); at 35% instance 0 is killed with SIGKILL, at 50% started again; once the
 * fuzzer is done (its good requests must not meet the database restart), at 70% PostgreSQL restarts in immediate
 * mode. A step that fails counts as a failure of the run.
 */
final class FaultSchedule {

    private final FaultsOptions o;
    private final Instances servers;
    private final Observations obs;
    /** The fuzzer's counts; null when it did not run or did not finish. */
    volatile Fuzzer.Outcome fuzz;

    FaultSchedule(FaultsOptions o, Instances servers, Observations obs) {
        this.o = o;
        this.servers = servers;
        this.obs = obs;
    }

    void run(long loadStart) {
        try {
            Thread fuzzer = null;
            Pace.sleepUntil(loadStart + (long) (o.seconds * 0.10e9));
            if (o.fuzzRequests > 0) {
                int target = o.instances - 1;
                obs.say("fuzz: %d malformed and well-formed requests against instance %d", o.fuzzRequests, target);
                fuzzer = new Thread(() -> fuzz(target), "fuzz");
                fuzzer.start();
            }
            if (o.kill && o.instances > 1) {
                Pace.sleepUntil(loadStart + (long) (o.seconds * 0.35e9));
                servers.kill(0);
                Pace.sleepUntil(loadStart + (long) (o.seconds * 0.50e9));
                servers.restart(0);
            }
            if (fuzzer != null) {
                fuzzer.join();
                obs.say("fuzz: %s", fuzz == null ? "no RESULT (see " + o.logs + "/fuzz.log)" : fuzz.resultLine());
            }
            if (o.restartDb) {
                Pace.sleepUntil(loadStart + (long) (o.seconds * 0.70e9));
                obs.say("restarting PostgreSQL (immediate)");
                long t = obs.now();
                Instances.restartDatabase();
                obs.say("PostgreSQL back after %.1f s", (obs.now() - t) / 1e9);
            }
        } catch (Exception e) {
            obs.example("fault step failed: " + e);
            obs.answersOther5xx.incrementAndGet(); // counted as a failure of the run
        }
    }

    private void fuzz(int instance) {
        try (PrintStream log = new PrintStream(new FileOutputStream(o.logs.resolve("fuzz.log").toFile()), true,
                StandardCharsets.UTF_8)) {
            fuzz = new Fuzzer(new Fuzzer.Options(servers.port(instance), servers.token(), o.fuzzRequests, 8, 1, 300))
                    .run(log);
        } catch (Exception e) {
            obs.example("fuzz failed: " + e);
        }
    }
}
