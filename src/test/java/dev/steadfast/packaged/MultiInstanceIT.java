package dev.steadfast.packaged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two packaged instances on one database under producers and workers (some slow, without heartbeats), one of
 * them killed with SIGKILL mid-run and started again: the tools jar's {@code faults} command at a small size,
 * without the PostgreSQL restart (the rest of the suite shares the cluster) and without fuzzing ({@code fuzz} runs
 * in CI). The tools jar is built first when it is missing (tools/ is a Maven module of its own). It
 * exits 0 only with no job lost, none completed twice, no two holds of a job at once, no answer 500 and none
 * without the envelope, events pushed through one instance (also just after the other joined) listed by the
 * other, real routes still in the metrics after 1,000 unauthenticated requests to made-up paths, and a rolling
 * upgrade of instance 0 (a new instance with the default console settings beside it, then SIGTERM to the old one)
 * with the new instance healthy and no stretch of failing requests over 10 s. The instances run with C1 only, as
 * every packaged jar the suite starts (see SecondInstance): three JVMs start at once on two cores here.
 */
class MultiInstanceIT {

    @Test
    void noJobIsLostCompletedTwiceOrHeldTwiceWhenAnInstanceIsKilled() throws Exception {
        assumeTrue(Files.exists(Path.of("target/quarkus-app/quarkus-run.jar")), "the JVM build only");
        Path log = Path.of("target/faults-it.log");
        // a fixed port range per checkout, outside the ephemeral ports
        int base = 19000 + Math.floorMod(Path.of("").toAbsolutePath().toString().hashCode(), 100) * 10;
        Process p = new ProcessBuilder("java", "-XX:TieredStopAtLevel=1", "-jar", toolsJar().toString(), "faults",
                "--instances", "2", "--jobs", "600", "--seconds", "12", "--producers", "4", "--workers", "4", "--slow-workers", "2", "--fuzz-requests", "0",
                "--no-db-restart", "--db", "steadfast_faults_it", "--base-port", String.valueOf(base),
                "--heap", "-Xmx256m", "--jvm-option", "-XX:TieredStopAtLevel=1", "--logs", "target/faults-it")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean done = p.waitFor(15, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "faults did not finish:\n" + out);
        assertEquals(0, p.exitValue(), out);
        List<String> result = out.lines().filter(l -> l.startsWith("RESULT ")).toList();
        assertEquals(1, result.size(), out);
        assertTrue(result.get(0).contains("lost=0 completed_twice=0 overlapping_leases=0 answers_500=0"), out);
        assertTrue(out.contains("SIGKILL instance 0"), out);
        assertTrue(out.contains("rolling upgrade: new instance (default console settings) healthy"), out);
        assertTrue(out.contains("PUSH recorded with uri"), out);
    }

    /** tools/target/steadfast-tools.jar, built with the project's Maven wrapper when it is not there yet. */
    static Path toolsJar() throws Exception {
        Path jar = Path.of("tools/target/steadfast-tools.jar");
        if (!Files.exists(jar)) {
            Path log = Path.of("target/tools-build.log");
            Process build = new ProcessBuilder(Path.of("mvnw").toAbsolutePath().toString(), "-B", "-q", "-f",
                    "tools/pom.xml", "package", "-DskipTests")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(build.waitFor(10, TimeUnit.MINUTES), "building the tools jar took over 10 minutes");
            assertEquals(0, build.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        }
        return jar;
    }
}
