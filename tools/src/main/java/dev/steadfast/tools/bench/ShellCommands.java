package dev.steadfast.tools.bench;

import static dev.steadfast.tools.bench.Bench.secs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The shell commands a run may be given: --before-timing and --pg-stats. */
final class ShellCommands {

    private static final Pattern PG_STAT = Pattern.compile("([a-z_][a-z0-9_]*)=(-?\\d+)");

    private ShellCommands() {
    }

    /**
     * Runs --before-timing (e.g. psql -c 'vacuum analyze') between the pre-enqueue and the timed part, as the
     * peers' W2/W4 programs vacuum-analyze their job table there. Bounded to 300 s.
     */
    static void beforeTiming(String command, String workload) throws InterruptedException {
        if (command == null) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            Process p = new ProcessBuilder("sh", "-c", command).inheritIO().start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                System.out.println("note: --before-timing did not finish in 300 s; killed");
            } else if (p.exitValue() != 0) {
                System.out.println("note: --before-timing exited " + p.exitValue());
            }
        } catch (IOException e) {
            System.out.println("note: --before-timing failed: " + e);
        }
        System.out.printf(Locale.ROOT, "%-14s --before-timing took %.2fs (not timed)%n", workload,
                secs(System.nanoTime() - t0));
    }

    /** Runs --pg-stats and parses its {@code key=integer} pairs; empty (with a note) if it fails. */
    static Map<String, Long> pgStats(String command) {
        Map<String, Long> m = new LinkedHashMap<>();
        try {
            Process p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            Matcher mt = PG_STAT.matcher(out);
            while (mt.find()) {
                m.put(mt.group(1), Long.parseLong(mt.group(2)));
            }
            if (m.isEmpty()) {
                System.out.println("note: --pg-stats printed no key=value pairs: " + out.strip());
            }
        } catch (IOException e) {
            System.out.println("note: --pg-stats failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return m;
    }
}
