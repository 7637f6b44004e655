package dev.steadfast.console;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Builds console URLs with a query string, leaving out empty parameters; values are URL-encoded. */
public final class Links {

    private final String path;
    private final Map<String, String> params = new LinkedHashMap<>();

    private Links(String path) {
        this.path = path;
    }

    public static Links to(String path) {
        return new Links(path);
    }

    public Links with(String name, Object value) {
        if (value != null && !value.toString().isEmpty()) {
            params.put(name, value.toString());
        }
        return this;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(path);
        char sep = '?';
        for (Map.Entry<String, String> e : params.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            sep = '&';
        }
        return sb.toString();
    }
}
