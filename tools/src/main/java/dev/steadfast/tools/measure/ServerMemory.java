package dev.steadfast.tools.measure;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** A process's resident memory now (VmRSS) and at its peak (VmHWM), in kB, from /proc/PID/status. */
public record ServerMemory(long pid, long rssKb, long hwmKb) {

    /** Null if {@code pid} is unknown (-1) or its status is unreadable (a note goes to {@code out}). */
    public static ServerMemory read(long pid, PrintStream out) {
        if (pid < 0) {
            return null;
        }
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/" + pid + "/status"));
            return new ServerMemory(pid, kb(lines, "VmRSS:"), kb(lines, "VmHWM:"));
        } catch (IOException e) {
            out.println("note: cannot read /proc/" + pid + "/status: " + e);
            return null;
        }
    }

    private static long kb(List<String> lines, String key) {
        return lines.stream().filter(l -> l.startsWith(key))
                .mapToLong(l -> Long.parseLong(l.substring(key.length()).trim().split("\\s+")[0]))
                .findFirst().orElse(-1);
    }

    public double rssMiB() {
        return rssKb / 1024.0;
    }

    public double hwmMiB() {
        return hwmKb / 1024.0;
    }

    /** "server-rss     pid=N before: VmRSS=..MiB VmHWM=..MiB  after: VmRSS=..MiB VmHWM=..MiB". */
    public String line(ServerMemory before) {
        return String.format(Locale.ROOT, "%-14s pid=%d before: VmRSS=%.0fMiB VmHWM=%.0fMiB"
                + "  after: VmRSS=%.0fMiB VmHWM=%.0fMiB", "server-rss", pid, before.rssMiB(), before.hwmMiB(),
                rssMiB(), hwmMiB());
    }
}
