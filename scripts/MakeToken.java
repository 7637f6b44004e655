// Makes an API token for the OJS API (Authorization: Bearer <token>) and the configuration line that accepts it:
//
//   java scripts/MakeToken.java --role worker                      one role
//   java scripts/MakeToken.java --role producer,readonly --name billing
//
// Roles: producer (push, batch push, info, cancel, activate), worker (fetch, ack, nack, heartbeat, snooze),
// readonly (every GET), admin (everything). The token is 32 random bytes (256 bits, ojs-security.md 6.1) from
// SecureRandom, base64url; the server keeps only its SHA-256. Give the token to the client and the line to the
// server; the token is printed once and cannot be recovered from the line.
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;

public class MakeToken {

    static final Set<String> ROLES = Set.of("producer", "worker", "admin", "readonly");

    public static void main(String[] args) throws Exception {
        String roles = null;
        String name = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--role", "--roles" -> roles = args[i + 1];
                case "--name" -> name = args[i + 1];
                default -> usage();
            }
        }
        if (roles == null || args.length % 2 != 0) {
            usage();
        }
        for (String r : roles.split(",")) {
            if (!ROLES.contains(r.trim())) {
                System.err.println("unknown role '" + r.trim() + "'; roles are " + ROLES);
                System.exit(2);
            }
        }
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        String token = "stf_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(StandardCharsets.UTF_8)));
        if (name == null) {
            name = roles.replace(',', '-') + "-" + HexFormat.of().formatHex(secret, 0, 3);
        }
        if (!name.matches("[a-z0-9-]+")) {
            System.err.println("--name takes lower-case letters, digits and '-' (it becomes part of a property name)");
            System.exit(2);
        }
        String value = roles + ":sha256:" + hash;
        System.out.println("token (give it to the client, shown once):");
        System.out.println("  " + token);
        System.out.println("server configuration (application.properties):");
        System.out.println("  steadfast.auth.tokens.\"" + name + "\"=" + value);
        System.out.println("or as an environment variable:");
        System.out.println("  STEADFAST_AUTH_TOKENS_" + name.toUpperCase().replace('-', '_') + "=" + value);
    }

    static void usage() {
        System.err.println("usage: java scripts/MakeToken.java --role producer|worker|admin|readonly[,...] [--name NAME]");
        System.exit(2);
    }
}
