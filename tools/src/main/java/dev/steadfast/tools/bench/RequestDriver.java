package dev.steadfast.tools.bench;

import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.OjsClient;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.function.ObjIntConsumer;

/**
 * Sends one POST per task, at most {@code maxInFlight} in flight (a semaphore over async requests), until the
 * tasks run out or the phase's timeout; waits for every answer. A request without an answer is the phase's error.
 */
final class RequestDriver {

    /** One POST: a path and its body. */
    record Req(String path, Object body) {
    }

    private RequestDriver() {
    }

    /** Task numbers come from {@code next} until it returns -1. */
    static void sendAll(OjsClient client, PhaseResult r, int timeoutSeconds, int maxInFlight, IntSupplier next,
                        IntFunction<Req> request, ObjIntConsumer<OjsAnswer> onAnswer) throws InterruptedException {
        Semaphore inFlight = new Semaphore(maxInFlight);
        long deadline = r.deadline(timeoutSeconds);
        while (System.nanoTime() < deadline
                && inFlight.tryAcquire(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
            int t = next.getAsInt();
            if (t < 0) {
                inFlight.release();
                break;
            }
            Req req = request.apply(t);
            client.postAsync(req.path(), req.body()).thenAccept(a -> {
                try {
                    if (a.failed()) {
                        r.error(a);
                    } else {
                        onAnswer.accept(a, t);
                    }
                } finally {
                    inFlight.release();
                }
            });
        }
        inFlight.acquire(maxInFlight);
    }
}
