package dev.steadfast.maintenance;

import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/** Repeats a bounded batch step until a batch comes back short, and adds up what the batches did. */
public final class Batches {

    private Batches() {
    }

    public static Uni<Integer> untilShort(Supplier<Uni<Integer>> step, int batch) {
        return step.get().flatMap(n -> n < batch ? Uni.createFrom().item(n) : untilShort(step, batch).map(m -> m + n));
    }
}
