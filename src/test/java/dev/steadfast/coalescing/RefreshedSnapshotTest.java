package dev.steadfast.coalescing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RefreshedSnapshotTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** Loads that finish only when the test says so, counted. */
    static final class Loads {
        final List<UniEmitter<? super String>> open = new CopyOnWriteArrayList<>();
        final AtomicInteger started = new AtomicInteger();

        Uni<String> load() {
            started.incrementAndGet();
            return Uni.createFrom().emitter(open::add);
        }

        void finish(String value) {
            open.remove(0).complete(value);
        }
    }

    @Test
    void concurrentCallersBeforeTheFirstLoadShareOneLoad() throws Exception {
        Loads loads = new Loads();
        RefreshedSnapshot<String> s = new RefreshedSnapshot<>(Duration.ofSeconds(1), loads::load);
        int n = 64;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger arrived = new AtomicInteger();
        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            answers.add(CompletableFuture.supplyAsync(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                CompletableFuture<String> answer = s.get(T0).subscribeAsCompletionStage();
                arrived.incrementAndGet();
                return answer;
            }, pool).thenCompose(f -> f));
        }
        go.countDown();
        org.awaitility.Awaitility.await("every caller subscribed while the load is open")
                .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> arrived.get() == n);
        assertEquals(1, loads.open.size(), "the first load is still open");
        loads.finish("v1");
        for (CompletableFuture<String> a : answers) {
            assertEquals("v1", a.get(5, TimeUnit.SECONDS));
        }
        assertEquals(1, loads.started.get(), "one load for " + n + " callers");
        pool.shutdown();
    }

    @Test
    void afterExpiryOneCallerReloadsAndTheOthersGetTheStaleValueMeanwhile() throws Exception {
        Loads loads = new Loads();
        RefreshedSnapshot<String> s = new RefreshedSnapshot<>(Duration.ofSeconds(1), loads::load);
        CompletableFuture<String> first = s.get(T0).subscribeAsCompletionStage();
        loads.finish("v1");
        assertEquals("v1", first.get(1, TimeUnit.SECONDS));
        assertEquals("v1", s.get(T0.plusMillis(999)).await().indefinitely(), "fresh: no load");
        assertEquals(1, loads.started.get());

        Instant later = T0.plusSeconds(1);
        CompletableFuture<String> reloader = s.get(later).subscribeAsCompletionStage();
        for (int i = 0; i < 100; i++) {
            assertEquals("v1", s.get(later).await().atMost(Duration.ofSeconds(1)), "stale while the reload runs");
        }
        assertEquals(2, loads.started.get(), "a single reload");
        loads.finish("v2");
        assertEquals("v2", reloader.get(1, TimeUnit.SECONDS));
        assertEquals("v2", s.get(later.plusMillis(500)).await().indefinitely());
        assertEquals(2, loads.started.get());
    }

    @Test
    void aFailedReloadIsRetriedByTheNextCaller() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        RefreshedSnapshot<String> s = new RefreshedSnapshot<>(Duration.ofSeconds(1), () ->
                calls.incrementAndGet() == 1 ? Uni.createFrom().failure(new IllegalStateException("down"))
                        : Uni.createFrom().item("v" + calls.get()));
        assertThrows(IllegalStateException.class, () -> s.get(T0).await().indefinitely());
        assertEquals("v2", s.get(T0).await().indefinitely());
        assertEquals("v2", s.get(T0).await().indefinitely());
        assertEquals(2, calls.get());
    }

    @Test
    void aLocalChangeAppliesAtOnceAndTheNextCallerRereads() {
        Loads loads = new Loads();
        RefreshedSnapshot<String> s = new RefreshedSnapshot<>(Duration.ofSeconds(1), loads::load);
        CompletableFuture<String> first = s.get(T0).subscribeAsCompletionStage();
        loads.finish("a");
        first.join();
        s.changed(v -> v + "+b");
        CompletableFuture<String> reloader = s.get(T0).subscribeAsCompletionStage();
        assertEquals("a+b", s.get(T0).await().atMost(Duration.ofSeconds(1)), "the change, while the reread runs");
        s.changed(v -> v + "+c"); // made while the reread runs: that reread may have missed it
        loads.finish("a+b");
        assertEquals("a+b", reloader.join());
        CompletableFuture<String> third = s.get(T0).subscribeAsCompletionStage(); // still stale: reads once more
        assertEquals("a+b+c", s.get(T0).await().atMost(Duration.ofSeconds(1)), "not overwritten by the older reread");
        assertEquals(3, loads.started.get());
        loads.finish("a+b+c");
        assertEquals("a+b+c", third.join());
        s.forget();
        CompletableFuture<String> afterForget = s.get(T0).subscribeAsCompletionStage();
        CompletableFuture<String> alsoWaiting = s.get(T0).subscribeAsCompletionStage();
        assertEquals(false, afterForget.isDone(), "nothing to serve: callers wait for the load");
        assertEquals(false, alsoWaiting.isDone());
        loads.finish("z");
        assertEquals("z", afterForget.join());
        assertEquals("z", alsoWaiting.join());
        assertEquals(4, loads.started.get());
    }
}
