package dev.steadfast;

import dev.steadfast.commands.Commands;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Starts the server. Before Quarkus boots it switches off the HTTP layer's own URL check
 * ({@code vertx.disableURIValidation}), which answers a URL {@link java.net.URI} cannot parse (a raw {@code {}},
 * {@code []}, {@code \}, a bad percent-escape) with a bare 400: no body, no request id. Steadfast checks every
 * request line itself first ({@code http.RequestTarget}, run by {@code http.HttpFrame} for every path) and answers
 * the OJS error envelope, or the console's error page under /admin. The property is read once, when the HTTP
 * layer's classes load, so it must be set here; tests set it in the surefire configuration and quarkus:dev in
 * the quarkus-maven-plugin's jvmArgs.
 *
 * <p>When the first argument names an operator command ({@code token}, {@code hash-password}, {@code help}: see
 * {@link Commands}) that command runs instead, before Quarkus boots, and the process exits with its status.
 */
@QuarkusMain
public class Main {

    public static void main(String... args) {
        if (Commands.isCommand(args)) {
            System.exit(Commands.run(args, System.in, System.out, System.err));
        }
        System.setProperty("vertx.disableURIValidation", "true");
        Quarkus.run(args);
    }
}
