package dev.steadfast.coalescing;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.function.Consumer;

/**
 * The Vert.x context a caller was on when it handed its work to a shared piece of work (a coalesced batch, a
 * shared reload): its request's duplicated context, which holds its MDC (request id, trace) and its reactive
 * session. The shared work answers every caller on the thread that ran it; {@link #deliver} hands each answer over
 * in the caller's own context, so whatever the caller does next (log lines, more queries) is its own and not that
 * of the request that happened to run the shared work.
 *
 * <p>Only public Vert.x API: a caller already on the current context is answered at once; any other caller through
 * {@link Context#runOnContext}, which runs the answer on its context's own event loop with that context current
 * (one task on that loop's queue, and never on a thread the caller's session was not opened on).
 */
final class CallerContext {

    private static final CallerContext NONE = new CallerContext(null);

    private final Context context;

    private CallerContext(Context context) {
        this.context = context;
    }

    /** The context of the current caller; outside Vert.x (a plain thread) answers are delivered as they come. */
    static CallerContext current() {
        Context c = Vertx.currentContext();
        return c == null ? NONE : new CallerContext(c);
    }

    /** Gives {@code value} to {@code to} in the caller's context. */
    <T> void deliver(T value, Consumer<T> to) {
        if (context == null || context == Vertx.currentContext()) {
            to.accept(value);
        } else {
            context.runOnContext(ignored -> to.accept(value));
        }
    }
}
