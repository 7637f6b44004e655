package dev.steadfast.tools.ojs;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** How {@link OjsClient} moves one request and its answer; I/O failures are exceptions here. */
interface Transport extends AutoCloseable {

    /** One request: {@code body} null sends none; the headers every request carries are the transport's. */
    record Exchange(String method, String path, String body, String requestId, Duration timeout) {
    }

    /** One answer. */
    record Reply(int status, String body) {
    }

    Reply exchange(Exchange e) throws IOException, InterruptedException;

    /** Completes with the reply, or exceptionally (an {@link IOException}, possibly wrapped) without one. */
    CompletableFuture<Reply> exchangeAsync(Exchange e);

    @Override
    void close();
}
