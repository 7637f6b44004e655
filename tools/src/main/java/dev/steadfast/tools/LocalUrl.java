package dev.steadfast.tools;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code --url} of the measuring commands: the local machine only, {@code http://127.0.0.1:PORT}. */
public final class LocalUrl {

    private static final Pattern LOCAL = Pattern.compile("^http://(127\\.0\\.0\\.1|localhost):(\\d+)/?$");

    private LocalUrl() {
    }

    /** The port of {@code url}; an {@link Exit} (status 2) naming the rule when it is not a local URL. */
    public static int port(String url) {
        Matcher m = LOCAL.matcher(url == null ? "" : url);
        if (!m.matches()) {
            throw new Exit(2, "--url must be http://127.0.0.1:PORT (this tool only talks to the local machine)");
        }
        return Integer.parseInt(m.group(2));
    }
}
