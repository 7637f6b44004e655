package dev.steadfast.tools;

/**
 * Ends a command early with an exit status: a usage text (to standard output) or an error message (to standard
 * error). {@link Main} prints it and exits; nothing below Main calls System.exit.
 */
public final class Exit extends RuntimeException {

    private final int status;
    private final boolean toStdout;

    /** An error: {@code message} goes to standard error. */
    public Exit(int status, String message) {
        this(status, message, false);
    }

    private Exit(int status, String message, boolean toStdout) {
        super(message, null, false, false);
        this.status = status;
        this.toStdout = toStdout;
    }

    /** The usage text on standard output; status 0 when it was asked for (--help), else 2. */
    public static Exit usage(String text, boolean asked) {
        return new Exit(asked ? 0 : 2, text, true);
    }

    public int status() {
        return status;
    }

    public boolean toStdout() {
        return toStdout;
    }
}
