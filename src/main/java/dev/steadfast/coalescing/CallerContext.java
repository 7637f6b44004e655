package dev.steadfast.coalescing;

import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import java.util.function.Consumer;

/**
 * The Vert.x context a caller was on when it handed its work to a shared piece of work (a coalesced batch, a
 * shared reload): its request's duplicated context, which holds its MDC (request id, trace). The shared work
 * answers every caller on the thread that ran it; {@link #deliver} hands each answer over in the caller's own
 * context, on that thread (no extra hop), so whatever the caller does next (log lines, more queries) is its own
 * and not that of the request that happened to run the shared work.
 */
final class CallerContext {

    private static final CallerContext NONE = new CallerContext(null);

    private final ContextInternal context;

    private CallerContext(ContextInternal context) {
        this.context = context;
    }

    /** The context of the current caller; outside Vert.x (a plain thread) answers are delivered as they come. */
    static CallerContext current() {
        ContextInternal c = (ContextInternal) Vertx.currentContext();
        return c == null ? NONE : new CallerContext(c);
    }

    /** Gives {@code value} to {@code to} in the caller's context. */
    <T> void deliver(T value, Consumer<T> to) {
        if (context == null || context == Vertx.currentContext()) {
            to.accept(value);
        } else {
            context.dispatch(value, to::accept);
        }
    }
}
