package dev.steadfast.domain.webhook;

import dev.steadfast.domain.OjsException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

/**
 * Where a webhook may be sent (ojs-webhooks 8.4, and the server-side request forgery a job server that posts to
 * URLs its callers name must refuse). A URL is absolute, {@code https} ({@code http} only when allowed), names a
 * host and carries no user info. An address is refused when it is not public: loopback, link-local (cloud metadata
 * services live at 169.254.169.254), private (RFC 1918, IPv6 unique local), carrier-grade NAT, unspecified or
 * multicast; IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry. Ranges listed in
 * {@code allowed} (CIDR) are let through anyway. A host given by name is judged when it is resolved, at each
 * delivery ({@link #refuses(InetAddress, List)}); {@code localhost} is judged at once as the loopback it is.
 */
public final class WebhookTarget {

    public static final int MAX_URL_LENGTH = 2048;

    private WebhookTarget() {
    }

    /** The URL, checked; 400 naming {@code field} otherwise. */
    public static URI check(String field, String url, boolean allowHttp, List<AddressRange> allowed) {
        if (url.isEmpty() || url.length() > MAX_URL_LENGTH) {
            throw bad(field, "'" + field + "' must be an absolute URL of at most " + MAX_URL_LENGTH + " characters.",
                    url);
        }
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw bad(field, "'" + field + "' is not a valid URL: " + e.getReason() + ".", url);
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(allowHttp && scheme.equals("http"))) {
            throw bad(field, "'" + field + "' must be an https URL" + (allowHttp ? " or an http one" : " (http is"
                    + " refused unless steadfast.webhooks.allow-http is set, for development)") + ".", url);
        }
        if (u.getHost() == null || u.getHost().isEmpty()) {
            throw bad(field, "'" + field + "' must name a host.", url);
        }
        if (u.getRawUserInfo() != null) {
            throw bad(field, "'" + field + "' must not carry a user name or password; use the signature to"
                    + " authenticate deliveries.", url);
        }
        if (u.getRawFragment() != null) {
            throw bad(field, "'" + field + "' must not carry a fragment (#...).", url);
        }
        InetAddress literal = literal(u.getHost());
        if (literal != null && refuses(literal, allowed)) {
            throw bad(field, "'" + field + "' points at a private, loopback or link-local address, which webhooks"
                    + " may not reach (steadfast.webhooks.allowed-private-ranges lets a range through).", url);
        }
        return u;
    }

    /** The address a host names without a lookup (an IP literal, or localhost), or null for a name to resolve. */
    public static InetAddress literal(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("localhost") || h.endsWith(".localhost")) {
            return InetAddress.getLoopbackAddress();
        }
        boolean v6 = h.startsWith("[") && h.endsWith("]");
        boolean v4 = h.matches("^[0-9.]+$");
        if (!v6 && !v4) {
            return null;
        }
        try {
            // getByName does no lookup for a literal
            return InetAddress.getByName(v6 ? h.substring(1, h.length() - 1) : h);
        } catch (UnknownHostException e) {
            return InetAddress.getLoopbackAddress(); // a malformed literal is refused as loopback would be
        }
    }

    /** True when a delivery must not be sent to {@code a}. */
    public static boolean refuses(InetAddress a, List<AddressRange> allowed) {
        for (AddressRange r : allowed) {
            if (r.contains(a)) {
                return false;
            }
        }
        return !isPublic(a);
    }

    /** True for an address on the public internet. */
    public static boolean isPublic(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length == 16 && isMappedV4(b)) {
            b = new byte[] {b[12], b[13], b[14], b[15]};
        }
        if (a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isAnyLocalAddress()
                || a.isMulticastAddress()) {
            return false;
        }
        if (b.length == 4) {
            int b0 = b[0] & 0xff;
            int b1 = b[1] & 0xff;
            return !(b0 == 0 || b0 == 127 || b0 == 10 || b0 == 169 && b1 == 254 || b0 == 172 && (b1 & 0xf0) == 16
                    || b0 == 192 && b1 == 168 || b0 == 100 && (b1 & 0xc0) == 64 || b0 >= 224);
        }
        int b0 = b[0] & 0xff;
        return (b0 & 0xfe) != 0xfc && !(b0 == 0xfe && (b[1] & 0xc0) == 0x80);
    }

    private static boolean isMappedV4(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
    }

    private static OjsException bad(String field, String message, String url) {
        return OjsException.invalidField(field, message, "an https URL of a public host", EventFilter.shown(url));
    }
}
