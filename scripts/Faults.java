import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Forwards to {@code java -jar tools/target/steadfast-tools.jar faults ARGS} (building the jar first when it is
 * missing) for the one caller not moved to the jar yet: MultiInstanceIT runs {@code java scripts/Faults.java}.
 * Delete this file when that test calls the jar itself. Run from the repository root.
 */
public class Faults {

    public static void main(String[] args) throws Exception {
        Path jar = Path.of("tools/target/steadfast-tools.jar");
        if (!Files.exists(jar)) {
            int built = new ProcessBuilder("./mvnw", "-B", "-q", "-f", "tools/pom.xml", "package", "-DskipTests")
                    .inheritIO().start().waitFor();
            if (built != 0) {
                System.err.println("faults: the tools jar does not build (./mvnw -B -q -f tools/pom.xml package)");
                System.exit(2);
            }
        }
        List<String> command = new ArrayList<>(List.of("java", "-jar", jar.toString(), "faults"));
        command.addAll(List.of(args));
        System.exit(new ProcessBuilder(command).inheritIO().start().waitFor());
    }
}
