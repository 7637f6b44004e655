package dev.steadfast.grpc;

import static dev.steadfast.testsupport.Api.ack;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.newUuidV7;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.GrpcCalls;
import io.grpc.Context;
import io.grpc.stub.StreamObserver;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openjobspec.ojs.v1.Event;
import org.openjobspec.ojs.v1.StreamEventsRequest;

/**
 * StreamEvents (ojs-grpc-binding.md 10.2): the lifecycle events of jobs handled over HTTP reach a gRPC stream, with
 * its filters ANDed.
 */
@QuarkusTest
class GrpcStreamEventsTest {

    private GrpcCalls grpc;
    private Context.CancellableContext call;

    @BeforeEach
    void setUp() {
        Api.reset();
        grpc = new GrpcCalls();
        call = Context.current().withCancellation();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        call.cancel(null);
        grpc.close();
    }

    /** Opens the stream; the lifecycle events it receives (not its keepalives) go to the returned queue. */
    private BlockingQueue<Event> open(StreamEventsRequest r) {
        return open(r, false);
    }

    private BlockingQueue<Event> open(StreamEventsRequest r, boolean keepalives) {
        BlockingQueue<Event> got = new LinkedBlockingQueue<>();
        call.run(() -> grpc.async().streamEvents(r, new StreamObserver<>() {
            @Override
            public void onNext(Event e) {
                if (keepalives || !e.getType().equals(GrpcEvents.KEEPALIVE)) {
                    got.add(e);
                }
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
        }));
        return got;
    }

    /** Pushes to {@code queue} until the stream shows an event: the subscription is in place once one arrives. */
    private static void untilSubscribed(BlockingQueue<Event> got, String queue) {
        Awaitility.await("the stream's first event").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    if (got.isEmpty()) {
                        enqueue(job("probe", queue));
                    }
                    return !got.isEmpty();
                });
        got.clear();
    }

    @Test
    void eventsOfJobsHandledOverHttpArriveFilteredByQueueAndType() throws InterruptedException {
        String q = "grpc-ev-" + newUuidV7().substring(24);
        BlockingQueue<Event> all = open(StreamEventsRequest.newBuilder().addQueues(q).build());
        untilSubscribed(all, q);
        BlockingQueue<Event> completed = open(StreamEventsRequest.newBuilder().addQueues(q)
                .addEventTypes("job.completed").build());
        // the second stream subscribes too; give it its own proof
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (completed.isEmpty()) {
                enqueue(job("probe", q));
                ack(fetchOne("w", q), "w", null);
            }
            return !completed.isEmpty();
        });
        completed.clear();
        all.clear();

        // probes may still be queued in q: they are worked off with the watched job and their events skipped
        String other = "grpc-ev-" + newUuidV7().substring(24);
        enqueue(job("elsewhere", other));
        String id = enqueue(job("watched", q));
        List<String> fetched = Api.fetchIds("w-ev", 100, q);
        assertTrue(fetched.contains(id), fetched.toString());
        for (String f : fetched) {
            assertEquals(200, ack(f, "w-ev", null).statusCode());
        }

        Event done = null;
        while (done == null || done.getJobType().equals("probe")) {
            done = completed.poll(10, TimeUnit.SECONDS);
            assertTrue(done != null, "no job.completed for the watched job");
            assertEquals("job.completed", done.getType(), "the type filter let another event through");
        }
        assertEquals(id, done.getJobId());
        assertEquals(q, done.getQueue());
        assertEquals("watched", done.getJobType());
        assertTrue(done.getId().startsWith("evt_"), done.getId());

        List<String> types = new java.util.ArrayList<>();
        while (!types.contains("job.completed")) {
            Event e = all.poll(10, TimeUnit.SECONDS);
            assertTrue(e != null, "no job.completed on the queue's stream; saw " + types);
            assertEquals(q, e.getQueue(), "an event of another queue passed the filter");
            if (e.getJobId().equals(id)) {
                types.add(e.getType());
            }
        }
        assertEquals("job.enqueued", types.get(0), types.toString());
    }

    /** An idle stream, even one whose filters match nothing, hears a keepalive every interval (1 s in tests). */
    @Test
    void anIdleStreamHearsKeepalives() throws InterruptedException {
        BlockingQueue<Event> got = open(StreamEventsRequest.newBuilder().addQueues("grpc-ev-idle")
                .addEventTypes("job.completed").build(), true);
        for (int i = 0; i < 2; i++) {
            Event e = got.poll(10, TimeUnit.SECONDS);
            assertTrue(e != null, "no keepalive within 10 s");
            assertEquals(GrpcEvents.KEEPALIVE, e.getType());
            assertTrue(e.getTimestamp().getSeconds() > 0, e.toString());
        }
    }
}
