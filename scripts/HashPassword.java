// Makes a console password hash for steadfast.console.password-hash (STEADFAST_CONSOLE_PASSWORD_HASH):
//
//   java scripts/HashPassword.java            asks for the password (not echoed) twice
//   java scripts/HashPassword.java --stdin    reads it from the first line of standard input
//
// The output is pbkdf2-sha256$<iterations>$<salt>$<hash> (PBKDF2-HMAC-SHA256, 600,000 iterations, 16-byte salt,
// base64), the format dev.steadfast.admin.PasswordHash verifies. Never pass the password as an argument: it would
// end up in the shell history and the process list.
import java.io.BufferedReader;
import java.io.Console;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

public class HashPassword {

    static final int ITERATIONS = 600_000;

    public static void main(String[] args) throws Exception {
        char[] password;
        if (args.length == 1 && args[0].equals("--stdin")) {
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            password = line == null ? new char[0] : line.toCharArray();
        } else if (args.length == 0 && System.console() != null) {
            Console c = System.console();
            password = c.readPassword("Console password: ");
            if (!Arrays.equals(password, c.readPassword("Again: "))) {
                System.err.println("The two passwords differ.");
                System.exit(1);
            }
        } else {
            System.err.println("usage: java scripts/HashPassword.java [--stdin]");
            System.exit(2);
            return;
        }
        if (password.length < 12) {
            System.err.println("Use at least 12 characters.");
            System.exit(1);
        }
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        PBEKeySpec spec = new PBEKeySpec(password, salt, ITERATIONS, 256);
        byte[] hash = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        Base64.Encoder b64 = Base64.getEncoder();
        System.out.println("pbkdf2-sha256$" + ITERATIONS + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(hash));
    }
}
