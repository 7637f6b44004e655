package dev.steadfast.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.events.WorkSignal.Wake;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Who a wake wakes: as many plain waiters as jobs (one for a notification), every restricted waiter. */
class WorkSignalTest {

    private final Vertx vertx = Vertx.vertx();
    private final WorkSignal signal = new WorkSignal(vertx, Clock.systemUTC());
    /** Each waiter's name and why it woke, in the order they woke. */
    private final Map<String, Wake> woke = new ConcurrentHashMap<>();
    private final List<String> order = new ArrayList<>();

    @AfterEach
    void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private void waiter(String name, List<String> queues, boolean plain) {
        signal.await(queues, Duration.ofMinutes(1), plain).subscribe().with(why -> {
            synchronized (order) {
                order.add(name);
            }
            woke.put(name, why);
        });
    }

    @Test
    void aNotificationWakesTheLongestWaitingPlainWaiterAndEveryRestrictedOne() {
        waiter("p1", List.of("q"), true);
        waiter("p2", List.of("q"), true);
        waiter("p3", List.of("q"), true);
        waiter("tenant", List.of("q"), false);
        waiter("elsewhere", List.of("other"), true);
        assertEquals(5, signal.waiting());

        signal.notified("q");

        assertEquals(Map.of("p1", Wake.MAYBE_MORE, "tenant", Wake.MAYBE_MORE), woke);
        assertEquals(3, signal.waiting(), "p2, p3 and the other queue's waiter sleep on");
    }

    @Test
    void aPushWakesOnePlainWaiterPerJob() {
        waiter("p1", List.of("q"), true);
        waiter("p2", List.of("q"), true);
        waiter("p3", List.of("q"), true);

        signal.wake("q", 2);

        assertEquals(Map.of("p1", Wake.JOB, "p2", Wake.JOB), woke);
        assertEquals(1, signal.waiting());
    }

    @Test
    void aWaiterOfSeveralQueuesIsWokenOnceAndCountsOnce() {
        waiter("both", List.of("a", "b"), true);
        waiter("b-only", List.of("b"), true);

        signal.wake("a", 1);
        signal.wake("b", 1);

        assertEquals(List.of("both", "b-only"), order, "the second wake skips the waiter already woken");
        assertEquals(0, signal.waiting());
    }

    @Test
    void aDueTimeOrAReconnectWakesEveryone() {
        waiter("p1", List.of("q"), true);
        waiter("p2", List.of("q"), true);
        waiter("r", List.of("r"), false);

        signal.wake("q");
        assertEquals(Map.of("p1", Wake.MAYBE_MORE, "p2", Wake.MAYBE_MORE), woke);
        signal.wakeAll();
        assertEquals(Wake.MAYBE_MORE, woke.get("r"));
        assertEquals(0, signal.waiting());
    }
}
