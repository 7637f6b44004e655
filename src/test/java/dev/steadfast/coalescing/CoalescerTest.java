package dev.steadfast.coalescing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CoalescerTest {

    /** A batch function whose batches complete only when the test says so. */
    static final class Manual {
        final List<List<Integer>> batches = new CopyOnWriteArrayList<>();
        final List<UniEmitter<? super List<String>>> open = new CopyOnWriteArrayList<>();

        Uni<List<String>> run(List<Integer> items) {
            batches.add(List.copyOf(items));
            return Uni.createFrom().emitter(open::add);
        }

        void completeNext() {
            UniEmitter<? super List<String>> em = open.remove(0);
            List<Integer> items = batches.get(batches.size() - open.size() - 1);
            em.complete(items.stream().map(i -> "r" + i).toList());
        }
    }

    @Test
    void anIdleCoalescerSendsAtOnceAndABusyOneGathers() throws Exception {
        Manual m = new Manual();
        Coalescer<Integer, String> c = new Coalescer<>(m::run, 100, 1);
        List<CompletableFuture<String>> results = new ArrayList<>();
        results.add(c.submit(1).subscribeAsCompletionStage());
        assertEquals(List.of(List.of(1)), m.batches, "the first request leaves at once");
        for (int i = 2; i <= 5; i++) {
            results.add(c.submit(i).subscribeAsCompletionStage());
        }
        assertEquals(1, m.batches.size(), "the others wait while the batch is in flight");
        m.completeNext();
        assertEquals(List.of(2, 3, 4, 5), m.batches.get(1), "and leave together");
        m.completeNext();
        for (int i = 0; i < 5; i++) {
            assertEquals("r" + (i + 1), results.get(i).get(1, TimeUnit.SECONDS), "each gets its own result");
        }
    }

    @Test
    void batchesAreBoundedAndSeveralMayRunAtOnce() {
        Manual m = new Manual();
        Coalescer<Integer, String> c = new Coalescer<>(m::run, 3, 2);
        for (int i = 0; i < 10; i++) {
            c.submit(i).subscribeAsCompletionStage();
        }
        assertEquals(2, m.batches.size());
        m.completeNext();
        m.completeNext();
        m.completeNext();
        assertTrue(m.batches.stream().allMatch(b -> b.size() <= 3), m.batches.toString());
        assertEquals(List.of(0), m.batches.get(0));
    }

    @Test
    void aFailedBatchFailsEveryRequestInItAndTheNextBatchStillRuns() throws Exception {
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Coalescer<Integer, Integer> c = new Coalescer<>(items -> {
            seen.addAll(items);
            return items.contains(13) ? Uni.createFrom().failure(new IllegalStateException("boom"))
                    : Uni.createFrom().item(items);
        }, 10, 1);
        CompletableFuture<Integer> bad = c.submit(13).subscribeAsCompletionStage();
        assertThrows(Exception.class, () -> bad.get(1, TimeUnit.SECONDS));
        assertEquals(7, c.submit(7).await().atMost(java.time.Duration.ofSeconds(1)));
    }

    @Test
    void concurrentSubmittersAllGetTheirOwnAnswer() throws Exception {
        Coalescer<Integer, Integer> c = new Coalescer<>(items -> Uni.createFrom().item(items.stream().map(i -> i * 2).toList())
                .emitOn(Runnable::run), 50, 4);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<CompletableFuture<Integer>> all = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            int n = i;
            all.add(CompletableFuture.supplyAsync(() -> c.submit(n).await().indefinitely(), pool));
        }
        for (int i = 0; i < 2000; i++) {
            assertEquals(2 * i, all.get(i).get(5, TimeUnit.SECONDS));
        }
        pool.shutdown();
    }

    @Test
    void oneBadRequestNeverFailsItsNeighbours() throws Exception {
        Manual gate = new Manual();
        List<List<Integer>> calls = new CopyOnWriteArrayList<>();
        Coalescer<Integer, Integer> c = new Coalescer<>(items -> {
            calls.add(List.copyOf(items));
            if (items.equals(List.of(-1))) {
                return gate.run(items).map(r -> List.of(-1)); // holds the coalescer busy while the others gather
            }
            return items.contains(13) ? Uni.createFrom().failure(new IllegalArgumentException("bad value 13"))
                    : Uni.createFrom().item(items);
        }, 100, 1);
        CompletableFuture<Integer> first = c.submit(-1).subscribeAsCompletionStage();
        List<CompletableFuture<Integer>> rest = new ArrayList<>();
        for (int i = 10; i < 20; i++) {
            rest.add(c.submit(i).subscribeAsCompletionStage());
        }
        gate.completeNext();
        assertEquals(-1, first.get(1, TimeUnit.SECONDS));
        assertEquals(List.of(10, 11, 12, 13, 14, 15, 16, 17, 18, 19), calls.get(1), "the ten left as one batch");
        for (int i = 0; i < 10; i++) {
            CompletableFuture<Integer> r = rest.get(i);
            if (i + 10 == 13) {
                var e = assertThrows(java.util.concurrent.ExecutionException.class, () -> r.get(1, TimeUnit.SECONDS));
                assertEquals("bad value 13", e.getCause().getMessage());
            } else {
                assertEquals(i + 10, r.get(1, TimeUnit.SECONDS), "request " + (i + 10) + " got its own answer");
            }
        }
        assertTrue(calls.size() <= 2 + 2 * 4, "halving takes a few statements, not one per request: " + calls);
    }

    @Test
    void aDatabaseOutageFailsTheWholeBatchWithoutSplitting() throws Exception {
        Manual gate = new Manual();
        List<List<Integer>> calls = new CopyOnWriteArrayList<>();
        Coalescer<Integer, Integer> c = new Coalescer<>(items -> {
            calls.add(List.copyOf(items));
            return items.equals(List.of(-1)) ? gate.run(items).map(r -> List.of(-1))
                    : Uni.createFrom().failure(new java.net.SocketException("Connection reset"));
        }, 100, 1);
        c.submit(-1).subscribeAsCompletionStage();
        List<CompletableFuture<Integer>> rest = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            rest.add(c.submit(i).subscribeAsCompletionStage());
        }
        gate.completeNext();
        for (CompletableFuture<Integer> r : rest) {
            assertThrows(Exception.class, () -> r.get(1, TimeUnit.SECONDS));
        }
        assertEquals(2, calls.size(), "no split: " + calls);
    }

    @Test
    void aFullCoalescerRefusesAtOnceThenAcceptsAgainAndLosesNothing() throws Exception {
        Manual m = new Manual();
        Coalescer<Integer, String> c = new Coalescer<>("ack", m::run, 2, 1, 3);
        List<CompletableFuture<String>> accepted = new ArrayList<>();
        accepted.add(c.submit(0).subscribeAsCompletionStage()); // leaves at once and holds the coalescer busy
        for (int i = 1; i <= 3; i++) {
            accepted.add(c.submit(i).subscribeAsCompletionStage());
        }
        assertEquals(3, c.queued());
        var refused = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> c.submit(4).subscribeAsCompletionStage().get(1, TimeUnit.SECONDS));
        OjsException busy = (OjsException) refused.getCause();
        assertEquals(ErrorCode.SERVER_BUSY, busy.code());
        assertEquals(503, busy.code().status());
        assertTrue(busy.code().retryable());
        assertEquals("server_busy", busy.details().get("reason"));
        assertEquals(3, busy.details().get("queued"));
        assertTrue(Coalescer.refusal(busy));
        assertEquals(1L, c.refused());
        assertEquals(3, c.queued(), "the refused request was never queued");
        assertTrue(m.batches.stream().flatMap(List::stream).noneMatch(i -> i == 4), "nor run");

        m.completeNext(); // [0]; then [1, 2] leaves, 3 waits
        assertEquals(1, c.queued());
        accepted.add(c.submit(5).subscribeAsCompletionStage());
        assertEquals(2, c.queued(), "room again: accepted");
        while (!m.open.isEmpty()) {
            m.completeNext();
        }
        for (int i = 0; i < accepted.size(); i++) {
            int n = i < 4 ? i : 5;
            assertEquals("r" + n, accepted.get(i).get(1, TimeUnit.SECONDS), "accepted request " + n + " completed");
        }
        assertEquals(List.of(List.of(0), List.of(1, 2), List.of(3, 5)), m.batches);
        assertTrue(c.idle());
    }

    @Test
    void awaitIdleWaitsForEveryAcceptedRequest() throws Exception {
        Manual m = new Manual();
        Coalescer<Integer, String> c = new Coalescer<>("ack", m::run, 10, 1, 100);
        CompletableFuture<String> first = c.submit(1).subscribeAsCompletionStage();
        CompletableFuture<String> second = c.submit(2).subscribeAsCompletionStage();
        assertEquals(false, c.awaitIdle(java.time.Duration.ofMillis(20)), "a batch is still running");
        CompletableFuture<Boolean> idle = CompletableFuture.supplyAsync(() -> {
            try {
                return c.awaitIdle(java.time.Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        m.completeNext();
        m.completeNext();
        assertTrue(idle.get(5, TimeUnit.SECONDS));
        assertEquals("r1", first.getNow(null));
        assertEquals("r2", second.getNow(null), "answered before idle was reported");
    }

    /** A timer and a clock the test moves by hand. */
    static final class ManualTime implements Coalescer.Timer {
        long nanos;
        final List<Long> delays = new CopyOnWriteArrayList<>();
        final List<Runnable> tasks = new CopyOnWriteArrayList<>();

        @Override
        public void schedule(long delayMillis, Runnable task) {
            delays.add(delayMillis);
            tasks.add(task);
        }

        void advanceMillisAndFire(long ms) {
            nanos += ms * 1_000_000;
            List<Runnable> due = List.copyOf(tasks);
            tasks.clear();
            due.forEach(Runnable::run);
        }
    }

    @Test
    void aLingeringBatchWaitsForItsOldestRequestsLingerThenLeavesWithEverythingThatCame() {
        Manual m = new Manual();
        ManualTime t = new ManualTime();
        Coalescer<Integer, String> c = new Coalescer<>(m::run, 100, 1);
        c.linger(java.time.Duration.ofMillis(5), t, () -> t.nanos);
        c.submit(1).subscribeAsCompletionStage();
        assertEquals(0, m.batches.size(), "an idle coalescer with a linger does not send at once");
        assertEquals(List.of(5L), t.delays, "it wakes up when the first request has waited its linger");
        t.nanos += 2_000_000;
        c.submit(2).subscribeAsCompletionStage();
        assertEquals(1, t.delays.size(), "one wake-up at a time");
        t.advanceMillisAndFire(3);
        assertEquals(List.of(List.of(1, 2)), m.batches, "both leave together after 5 ms");
        c.submit(3).subscribeAsCompletionStage();
        t.advanceMillisAndFire(5);
        assertEquals(1, m.batches.size(), "while the batch runs, nothing else leaves (max-in-flight 1)");
        m.completeNext();
        assertEquals(List.of(3), m.batches.get(1), "a request that already waited its linger leaves when the slot frees");
    }

    @Test
    void aFullBatchLeavesWithoutLingeringAndAWakeUpTooEarlyWaitsAgain() {
        Manual m = new Manual();
        ManualTime t = new ManualTime();
        Coalescer<Integer, String> c = new Coalescer<>(m::run, 3, 1);
        c.linger(java.time.Duration.ofMillis(10), t, () -> t.nanos);
        c.submit(1).subscribeAsCompletionStage();
        c.submit(2).subscribeAsCompletionStage();
        assertEquals(0, m.batches.size());
        c.submit(3).subscribeAsCompletionStage();
        assertEquals(List.of(List.of(1, 2, 3)), m.batches, "maxBatch waiting: the batch leaves at once");
        m.completeNext();
        t.advanceMillisAndFire(0); // the first request's wake-up, now with nothing due
        c.submit(4).subscribeAsCompletionStage();
        t.advanceMillisAndFire(4);
        assertEquals(1, m.batches.size(), "4 has waited 4 of its 10 ms");
        assertEquals(10L, t.delays.get(t.delays.size() - 1) + 4L, "the next wake-up is 6 ms later: " + t.delays);
        t.advanceMillisAndFire(6);
        assertEquals(List.of(4), m.batches.get(1));
    }

    @Test
    void stoppingTheLingerSendsWhatWaitsAtOnce() {
        Manual m = new Manual();
        ManualTime t = new ManualTime();
        Coalescer<Integer, String> c = new Coalescer<>(m::run, 100, 1);
        c.linger(java.time.Duration.ofSeconds(60), t, () -> t.nanos);
        c.submit(1).subscribeAsCompletionStage();
        c.submit(2).subscribeAsCompletionStage();
        assertEquals(0, m.batches.size());
        c.stopLingering();
        assertEquals(List.of(List.of(1, 2)), m.batches, "shutdown does not wait for the linger");
    }
}
