package dev.steadfast.domain.webhook;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A range of addresses in CIDR form ({@code 127.0.0.0/8}, {@code ::1/128}, or one address): the private ranges a
 * deployment lets webhooks reach anyway (steadfast.webhooks.allowed-private-ranges).
 */
public record AddressRange(byte[] network, int prefix) {

    /** The range {@code cidr} names; IllegalArgumentException when it is not one. */
    public static AddressRange parse(String cidr) {
        String s = cidr.trim();
        int slash = s.indexOf('/');
        String host = slash < 0 ? s : s.substring(0, slash);
        if (!host.matches("^[0-9a-fA-F:.]+$")) {
            throw new IllegalArgumentException("not an address range: " + cidr);
        }
        byte[] net;
        try {
            net = InetAddress.getByName(host).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address range: " + cidr);
        }
        int bits = net.length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? bits : Integer.parseInt(s.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an address range: " + cidr);
        }
        if (prefix < 0 || prefix > bits) {
            throw new IllegalArgumentException("prefix out of range: " + cidr);
        }
        return new AddressRange(net, prefix);
    }

    /** True when {@code a} (of the same family) lies in the range. */
    public boolean contains(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length != network.length) {
            return false;
        }
        for (int i = 0; i < prefix; i++) {
            int mask = 0x80 >> (i % 8);
            if ((b[i / 8] & mask) != (network[i / 8] & mask)) {
                return false;
            }
        }
        return true;
    }
}
