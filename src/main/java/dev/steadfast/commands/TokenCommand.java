package dev.steadfast.commands;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;

/**
 * {@code token --role worker [--name NAME]}: makes an API token for the OJS API (Authorization: Bearer &lt;token&gt;)
 * and the configuration line that accepts it. Roles: producer (push, batch push, info, cancel, activate), worker
 * (fetch, ack, nack, heartbeat, snooze), readonly (every GET), admin (everything). The token is 32 random bytes
 * (256 bits, ojs-security.md 6.1) from SecureRandom, base64url; the server keeps only its SHA-256
 * ({@code http.ApiTokens}). Give the token to the client and the line to the server; the token is printed once
 * and cannot be recovered from the line.
 */
final class TokenCommand {

    static final Set<String> ROLES = Set.of("producer", "worker", "admin", "readonly");

    private TokenCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String roles = null;
        String name = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--role", "--roles" -> roles = args[i + 1];
                case "--name" -> name = args[i + 1];
                default -> {
                    return usage(err);
                }
            }
        }
        if (roles == null || args.length % 2 != 0) {
            return usage(err);
        }
        for (String r : roles.split(",")) {
            if (!ROLES.contains(r.trim())) {
                err.println("unknown role '" + r.trim() + "'; roles are " + ROLES);
                return 2;
            }
        }
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        String token = "stf_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        if (name == null) {
            name = roles.replace(',', '-') + "-" + HexFormat.of().formatHex(secret, 0, 3);
        }
        if (!name.matches("[a-z0-9-]+")) {
            err.println("--name takes lower-case letters, digits and '-' (it becomes part of a property name)");
            return 2;
        }
        String value = roles + ":sha256:" + sha256(token);
        out.println("token (give it to the client, shown once):");
        out.println("  " + token);
        out.println("server configuration (application.properties):");
        out.println("  steadfast.auth.tokens.\"" + name + "\"=" + value);
        out.println("or as an environment variable:");
        out.println("  STEADFAST_AUTH_TOKENS_" + name.toUpperCase().replace('-', '_') + "=" + value);
        return 0;
    }

    static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static int usage(PrintStream err) {
        err.println("usage: " + Commands.JAR + " token --role producer|worker|admin|readonly[,...] [--name NAME]");
        return 2;
    }
}
