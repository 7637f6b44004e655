package dev.steadfast.maintenance;

import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/** Repeats a bounded batch step until a batch comes back short, and adds up what the batches did. */
public final class Batches {

    private Batches() {
    }

    /** Each step answers how many rows it handled, which is also what it did. */
    public static Uni<Integer> untilShort(Supplier<Uni<Integer>> step, int batch) {
        return untilShort(step, batch, n -> n, n -> n);
    }

    /**
     * Each step answers an outcome: {@code read}, how many rows it took (a full batch: read on), and {@code did}, what
     * it counts (fewer when some rows it took needed nothing, as a lease reap's rechecked leases).
     */
    public static <B> Uni<Integer> untilShort(Supplier<Uni<B>> step, int batch, ToIntFunction<B> read,
                                              ToIntFunction<B> did) {
        return step.get().flatMap(b -> read.applyAsInt(b) < batch ? Uni.createFrom().item(did.applyAsInt(b))
                : untilShort(step, batch, read, did).map(m -> m + did.applyAsInt(b)));
    }
}
