package dev.steadfast.coalescing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.model.Completion;
import dev.steadfast.testsupport.Api;
import dev.steadfast.work.WorkerService;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Shutdown's flush ({@link Coalescers#flush}, run on ShutdownEvent before the pool closes): ACKs still waiting
 * in their coalescer, whose callers no longer wait for them, are written before it returns.
 */
@QuarkusTest
class CoalescerFlushTest {

    @Inject
    WorkerService workers;

    @Inject
    Coalescers coalescers;

    @Test
    void theFlushWritesEveryQueuedAckBeforeItReturns() {
        Api.reset();
        int n = 300;
        for (int i = 0; i < n; i += 100) {
            List<Object> jobs = new ArrayList<>();
            for (int j = 0; j < 100; j++) {
                jobs.add(Api.job("t.flush", "flush"));
            }
            Api.send(Api.obj("jobs", jobs)).post(Api.JOBS + "/batch").then().statusCode(201);
        }
        List<String> ids = Api.fetchIds("w-flush", n, "flush");
        assertEquals(n, ids.size());
        List<CompletableFuture<WorkerService.AckOutcome>> answers = new ArrayList<>();
        for (String id : ids) {
            // submitted and left alone, like the ACK of a client that disconnected
            answers.add(workers.complete(new Completion(UUID.fromString(id), null, "w-flush")).subscribeAsCompletionStage());
        }
        assertTrue(coalescers.flush(Duration.ofSeconds(20)), "flushed in time");
        assertTrue(answers.stream().allMatch(CompletableFuture::isDone), "every queued ACK was answered");
        for (String id : ids) {
            assertEquals("completed", Api.state(id), id);
        }
    }
}
