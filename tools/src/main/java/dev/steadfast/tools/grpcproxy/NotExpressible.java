package dev.steadfast.tools.grpcproxy;

/**
 * An HTTP request that the RPC's message cannot carry: a body that is not JSON, {@code args} that is not an array,
 * a string where the message has a number, a timestamp or duration that does not parse. The proxy answers it with
 * 501 and this message instead of sending something else over gRPC; the case that sent it is then one that is
 * about HTTP's JSON, not about the binding.
 */
final class NotExpressible extends RuntimeException {

    NotExpressible(String message) {
        super(message, null, false, false);
    }
}
