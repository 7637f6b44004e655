package dev.steadfast.coalescing;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.store.DatabaseFaults;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;

/**
 * Gathers concurrent requests into batches so that many jobs cost one statement and one commit ("natural
 * batching"): when fewer than {@code maxInFlight} batches are running, a request is sent at once, with whatever
 * else is waiting; while they are all busy, requests wait and leave together in the next batch of at most
 * {@code maxBatch}. An idle server therefore adds no latency, and a busy one gets bigger batches.
 *
 * <p>Optionally a batch may wait ({@code linger}) for more requests before it leaves: a free slot sends what waits
 * once the oldest waiting request has waited {@code linger}, or at once when {@code maxBatch} wait. Zero (the
 * default) keeps the behaviour above; a linger trades every request's latency for fewer, larger statements.
 *
 * <p>The batch function answers one result per input, in input order (null where the input had no effect). A
 * failed batch is split until the request that failed it fails alone, so one bad request never fails its
 * neighbours (see {@link #run}). Thread-safe: requests arrive from every event loop.
 *
 * <p>Bounded: at most {@code maxQueued} requests wait for a batch (those in running batches are bounded by
 * {@code maxBatch} x {@code maxInFlight}). A request beyond that is refused at once, before anything is done for it,
 * with {@link ErrorCode#SERVER_BUSY} (503, retryable, Retry-After), so a stalled database makes producers and
 * workers back off instead of piling requests up in memory. {@link #awaitIdle} lets shutdown wait until every
 * accepted request has been answered.
 *
 * @param <I> a request
 * @param <O> its result
 */
public final class Coalescer<I, O> {

    /** A waiting request; its answer is handed over in the context it was submitted from ({@link CallerContext}). */
    private record Pending<I, O>(I item, UniEmitter<? super O> emitter, CallerContext caller, long arrived) {

        void complete(O result) {
            caller.deliver(result, emitter::complete);
        }

        void fail(Throwable failure) {
            caller.deliver(failure, emitter::fail);
        }
    }

    /** Suggested wait in a refusal's Retry-After, in seconds. */
    public static final int RETRY_AFTER_SECONDS = 1;

    private final String name;
    private final Function<List<I>, Uni<List<O>>> batch;
    private final int maxBatch;
    private final int maxInFlight;
    private final int maxQueued;
    private final ArrayDeque<Pending<I, O>> waiting = new ArrayDeque<>();
    private int inFlight;
    private long refused;
    private IntConsumer batchSizes = n -> { };
    private long lingerNanos;
    private Timer timer;
    private LongSupplier nanoTime = System::nanoTime;
    private boolean timerSet;
    private boolean flushing;

    /** Runs {@code task} once, {@code delayMillis} from now, on any thread (the linger's wake-up). */
    public interface Timer {
        void schedule(long delayMillis, Runnable task);
    }

    /** An unbounded coalescer (tests). */
    public Coalescer(Function<List<I>, Uni<List<O>>> batch, int maxBatch, int maxInFlight) {
        this("requests", batch, maxBatch, maxInFlight, Integer.MAX_VALUE);
    }

    /** {@code name} says in a refusal which requests were refused ("push", "ack"). */
    public Coalescer(String name, Function<List<I>, Uni<List<O>>> batch, int maxBatch, int maxInFlight, int maxQueued) {
        this.name = name;
        this.batch = batch;
        this.maxBatch = Math.max(1, maxBatch);
        this.maxInFlight = Math.max(1, maxInFlight);
        this.maxQueued = Math.max(1, maxQueued);
    }

    /**
     * Lets a batch wait up to {@code linger} for more requests (see the class comment), woken by {@code timer};
     * {@code nanoTime} is the clock the wait is measured with. Set once, before the first request.
     */
    void linger(Duration linger, Timer timer, LongSupplier nanoTime) {
        this.lingerNanos = Math.max(0, linger.toNanos());
        this.timer = timer;
        this.nanoTime = nanoTime;
    }

    /** From now on batches leave without lingering (shutdown: what waits is written at once). */
    void stopLingering() {
        synchronized (this) {
            flushing = true;
        }
        drain();
    }

    /** Told the size of every batch that leaves (for a metric); set once, before the first request. */
    void onBatch(IntConsumer sizes) {
        this.batchSizes = sizes;
    }

    /** The request's result; fails with {@link ErrorCode#SERVER_BUSY} when {@code maxQueued} requests already wait. */
    public Uni<O> submit(I item) {
        return Uni.createFrom().emitter(em -> {
            int queued;
            synchronized (this) {
                queued = waiting.size();
                if (queued < maxQueued) {
                    waiting.add(new Pending<>(item, em, CallerContext.current(), lingerNanos > 0 ? nanoTime.getAsLong() : 0));
                    queued = -1;
                } else {
                    refused++;
                }
            }
            if (queued >= 0) {
                em.fail(busy(queued));
                return;
            }
            drain();
        });
    }

    private OjsException busy(int queued) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("reason", "server_busy");
        d.put("requests", name);
        d.put("queued", queued);
        d.put("max_queued", maxQueued);
        d.put("retry_after_seconds", RETRY_AFTER_SECONDS);
        return new OjsException(ErrorCode.SERVER_BUSY, "The server is busy: " + queued + " " + name
                + " requests already wait for the database on this instance (steadfast.batching.max-queued); nothing"
                + " was done, retry after " + RETRY_AFTER_SECONDS + " s.", d);
    }

    /** Whether {@code e} is this class's refusal (the request was not taken). */
    public static boolean refusal(Throwable e) {
        return e instanceof OjsException o && o.code() == ErrorCode.SERVER_BUSY;
    }

    /** Requests waiting for a batch now. */
    public synchronized int queued() {
        return waiting.size();
    }

    /** Requests refused since start. */
    public synchronized long refused() {
        return refused;
    }

    /** Whether every accepted request has been answered. */
    public synchronized boolean idle() {
        return inFlight == 0 && waiting.isEmpty();
    }

    /**
     * Waits (blocking) until every accepted request has been answered, at most {@code max}; true when it was.
     * For shutdown, after the HTTP layer stopped taking requests: nothing new arrives meanwhile.
     */
    public synchronized boolean awaitIdle(Duration max) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (inFlight > 0 || !waiting.isEmpty()) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    private void drain() {
        List<Pending<I, O>> next;
        synchronized (this) {
            if (inFlight >= maxInFlight || waiting.isEmpty()) {
                return;
            }
            if (lingerNanos > 0 && !flushing && waiting.size() < maxBatch) {
                long left = waiting.peek().arrived() + lingerNanos - nanoTime.getAsLong();
                if (left > 0) {
                    if (!timerSet) {
                        timerSet = true;
                        timer.schedule(Math.max(1, (left + 999_999) / 1_000_000), this::lingered);
                    }
                    return;
                }
            }
            inFlight++;
            next = new ArrayList<>(Math.min(waiting.size(), maxBatch));
            while (!waiting.isEmpty() && next.size() < maxBatch) {
                next.add(waiting.poll());
            }
        }
        batchSizes.accept(next.size());
        run(next).subscribe().with(v -> finished(), e -> finished());
    }

    /**
     * Runs one batch and answers its requests. When it fails and holds more than one request, the failure may
     * belong to one of them (a value the database refuses): the batch is split in halves, each run on its own
     * (one after the other, so a split never takes more connections than the batch did), until the bad request
     * fails alone and every other gets its own answer. The batch function is one statement, so a failed batch
     * changed nothing and running its requests again is safe. A passing database fault (restart, lost connection:
     * {@link DatabaseFaults#isTransient}) fails the whole batch at once: splitting would only add load.
     */
    private Uni<Void> run(List<Pending<I, O>> group) {
        List<I> items = new ArrayList<>(group.size());
        group.forEach(p -> items.add(p.item()));
        Uni<List<O>> run;
        try {
            run = batch.apply(items);
        } catch (RuntimeException e) {
            run = Uni.createFrom().failure(e);
        }
        return run.onItemOrFailure().transformToUni((results, failure) -> {
            if (failure == null) {
                for (int i = 0; i < group.size(); i++) {
                    group.get(i).complete(results.get(i));
                }
                return Uni.createFrom().voidItem();
            }
            if (group.size() == 1 || DatabaseFaults.isTransient(failure)) {
                group.forEach(p -> p.fail(failure));
                return Uni.createFrom().voidItem();
            }
            int half = group.size() / 2;
            List<Pending<I, O>> first = group.subList(0, half);
            List<Pending<I, O>> second = group.subList(half, group.size());
            return run(first).onItemOrFailure().transformToUni((v, e) -> run(second));
        });
    }

    /**
     * For a batch function whose requests may repeat a key (two ACKs of one job): runs the first request of each key
     * and answers the others null, as if they came after it. {@code run} answers the requests it applied, in any
     * order; they are matched back to the requests by key.
     */
    public static <I, O, K> Uni<List<O>> firstOfEachKey(List<I> batch, Function<I, K> key, Function<O, K> resultKey,
                                                 Function<List<I>, Uni<List<O>>> run) {
        Set<K> seen = new HashSet<>();
        List<I> unique = new ArrayList<>(batch.size());
        for (I item : batch) {
            if (seen.add(key.apply(item))) {
                unique.add(item);
            }
        }
        return run.apply(unique).map(applied -> {
            Map<K, O> byKey = new HashMap<>();
            applied.forEach(o -> byKey.put(resultKey.apply(o), o));
            List<O> out = new ArrayList<>(batch.size());
            for (I item : batch) {
                out.add(byKey.remove(key.apply(item))); // a repeat finds nothing left: null
            }
            return out;
        });
    }

    private void lingered() {
        synchronized (this) {
            timerSet = false;
        }
        drain();
    }

    private void finished() {
        synchronized (this) {
            inFlight--;
            if (inFlight == 0 && waiting.isEmpty()) {
                notifyAll();
            }
        }
        drain();
    }
}
