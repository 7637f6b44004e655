package dev.steadfast.grpc;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The gRPC binding's own settings (the port, TLS and the message limit are the HTTP side's). */
@ConfigMapping(prefix = "steadfast.grpc")
interface GrpcConfig {

    /**
     * How often StreamEvents sends a {@code stream.keepalive} event (ojs-grpc-binding.md 10.2.1: at least every
     * 30 s), so a client and any proxy between see the stream alive and a dead client is found by the failed write.
     */
    @WithDefault("15s")
    Duration keepaliveInterval();
}
