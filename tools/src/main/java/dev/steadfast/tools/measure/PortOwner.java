package dev.steadfast.tools.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** Finds the process owning a LISTEN socket: its inode from /proc/net/tcp{,6}, then the /proc/PID/fd links. */
public final class PortOwner {

    private PortOwner() {
    }

    /** The pid listening on {@code port}, or -1 when none that this user may read. */
    public static long pidListeningOn(int port) {
        Set<String> inodes = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            inodes.addAll(listenInodes(table, port));
        }
        if (inodes.isEmpty()) {
            return -1;
        }
        long self = ProcessHandle.current().pid();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.map(p -> p.getFileName().toString())
                    .filter(s -> s.chars().allMatch(Character::isDigit))
                    .mapToLong(Long::parseLong)
                    .filter(pid -> pid != self && ownsSocket(pid, inodes))
                    .findFirst().orElse(-1);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The command name of {@code pid}, "?" when unreadable. */
    public static String comm(long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/comm")).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    /** Inodes of sockets in state 0A (LISTEN) on {@code port}; fields: sl local rem st ... inode. */
    private static List<String> listenInodes(String table, int port) {
        List<String> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of(table))) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || !f[3].equals("0A") || f[1].indexOf(':') < 0) {
                    continue;
                }
                if (Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16) == port) {
                    out.add(f[9]);
                }
            }
        } catch (IOException | NumberFormatException ignored) {
            // table missing (no IPv6) or unreadable: nothing found here
        }
        return out;
    }

    private static boolean ownsSocket(long pid, Set<String> inodes) {
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return fds.anyMatch(fd -> inodes.contains(socketInode(fd)));
        } catch (IOException | SecurityException e) {
            return false; // other users' processes are not readable
        }
    }

    private static String socketInode(Path fd) {
        try {
            String link = Files.readSymbolicLink(fd).toString();
            return link.startsWith("socket:[") ? link.substring(8, link.length() - 1) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
