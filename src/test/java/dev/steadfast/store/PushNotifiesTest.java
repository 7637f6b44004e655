package dev.steadfast.store;

import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.nack;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.DatasourceSettings;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnection;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A PUSH announces on steadfast_jobs each queue that got an available job, once per statement, and not a queue whose
 * jobs wait for a later time; the revival of a finished job announces its queue too (V41: the statements do it, no
 * trigger). Heard on a LISTEN connection of the test's own, as another instance's JobNotifications hears it.
 */
@QuarkusTest
class PushNotifiesTest {

    @Inject
    DatasourceSettings db;

    private final Vertx vertx = Vertx.vertx();
    private final List<String> heard = new CopyOnWriteArrayList<>();
    private PgConnection listening;

    @BeforeEach
    void listen() throws Exception {
        Api.reset();
        listening = PgConnection.connect(vertx, db.connectOptions()).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        listening.notificationHandler(n -> {
            if (JobNotifications.CHANNEL.equals(n.getChannel())) {
                heard.add(n.getPayload());
            }
        });
        listening.query("LISTEN " + JobNotifications.CHANNEL).execute().toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() throws Exception {
        listening.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aBatchAnnouncesEachQueueOfItsAvailableJobsOnceAndNotItsScheduledOnes() throws Exception {
        List<Object> jobs = new ArrayList<>();
        for (String queue : List.of("notify-a", "notify-a", "notify-b", "notify-a", "notify-b")) {
            jobs.add(obj("type", "n.t", "args", arr(1), "options", obj("queue", queue)));
        }
        jobs.add(obj("type", "n.t", "args", arr(1), "options",
                obj("queue", "notify-later", "scheduled_at", Instant.now().plusSeconds(3600).toString())));
        assertEquals(201, send(obj("jobs", jobs)).post(Api.JOBS + "/batch").statusCode());
        enqueue(obj("type", "n.t", "args", arr(2), "options", obj("queue", "notify-single")));

        await("the single PUSH's queue", () -> heard.contains("notify-single"));
        assertEquals(1, Collections.frequency(heard, "notify-a"), heard.toString());
        assertEquals(1, Collections.frequency(heard, "notify-b"), heard.toString());
        assertEquals(0, Collections.frequency(heard, "notify-later"), heard.toString());
    }

    @Test
    void aDeadLetterRetriedIsAnnounced() throws Exception {
        String id = enqueue(obj("type", "n.t", "args", arr(3), "options", obj("queue", "notify-revived",
                "retry", obj("max_attempts", 1, "on_exhaustion", "dead_letter"))));
        assertEquals(id, fetchOne("w", "notify-revived"));
        nack(id, obj("code", "handler_error", "message", "boom")).then().statusCode(200);
        heard.clear();
        send(obj()).post("/ojs/v1/dead-letter/" + id + "/retry").then().statusCode(200);
        await("the revived job's queue", () -> heard.contains("notify-revived"));
    }

    private static void await(String what, BooleanSupplier done) {
        Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(done::getAsBoolean);
    }
}
