package dev.steadfast.service;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Gathers concurrent requests into batches so that many jobs cost one statement and one commit ("natural
 * batching"): when fewer than {@code maxInFlight} batches are running, a request is sent at once, with whatever
 * else is waiting; while they are all busy, requests wait and leave together in the next batch of at most
 * {@code maxBatch}. An idle server therefore adds no latency, and a busy one gets bigger batches.
 *
 * <p>The batch function answers one result per input, in input order (null where the input had no effect); a
 * failed batch fails every request in it. Thread-safe: requests arrive from every event loop.
 *
 * @param <I> a request
 * @param <O> its result
 */
public final class Coalescer<I, O> {

    private record Pending<I, O>(I item, UniEmitter<? super O> emitter) {
    }

    private final Function<List<I>, Uni<List<O>>> batch;
    private final int maxBatch;
    private final int maxInFlight;
    private final ArrayDeque<Pending<I, O>> waiting = new ArrayDeque<>();
    private int inFlight;

    public Coalescer(Function<List<I>, Uni<List<O>>> batch, int maxBatch, int maxInFlight) {
        this.batch = batch;
        this.maxBatch = Math.max(1, maxBatch);
        this.maxInFlight = Math.max(1, maxInFlight);
    }

    public Uni<O> submit(I item) {
        return Uni.createFrom().emitter(em -> {
            synchronized (this) {
                waiting.add(new Pending<>(item, em));
            }
            drain();
        });
    }

    private void drain() {
        List<Pending<I, O>> next;
        synchronized (this) {
            if (inFlight >= maxInFlight || waiting.isEmpty()) {
                return;
            }
            inFlight++;
            next = new ArrayList<>(Math.min(waiting.size(), maxBatch));
            while (!waiting.isEmpty() && next.size() < maxBatch) {
                next.add(waiting.poll());
            }
        }
        List<I> items = new ArrayList<>(next.size());
        next.forEach(p -> items.add(p.item()));
        Uni<List<O>> run;
        try {
            run = batch.apply(items);
        } catch (RuntimeException e) {
            run = Uni.createFrom().failure(e);
        }
        run.subscribe().with(results -> {
            finished();
            for (int i = 0; i < next.size(); i++) {
                next.get(i).emitter().complete(results.get(i));
            }
        }, failure -> {
            finished();
            next.forEach(p -> p.emitter().fail(failure));
        });
    }

    private void finished() {
        synchronized (this) {
            inFlight--;
        }
        drain();
    }
}
