package dev.steadfast.work;

import static dev.steadfast.testsupport.Api.ACK;
import static dev.steadfast.testsupport.Api.NACK;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.assertError;
import static dev.steadfast.testsupport.Api.enqueue;
import static dev.steadfast.testsupport.Api.error;
import static dev.steadfast.testsupport.Api.fetchOne;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.send;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** steadfast.workers.require-worker-id: worker requests that do not name their worker are refused. */
@QuarkusTest
@TestProfile(Profiles.Switches.class)
class RequireWorkerIdTest {

    @BeforeEach
    void reset() {
        Api.reset();
    }

    @Test
    void anAnswerWithoutItsWorkerIsRefusedAndChangesNothing() {
        String id = enqueue("req.worker", "req-q");
        assertError(send(obj("queues", arr("req-q"))).post(Api.FETCH), 400, "invalid_request");
        assertEquals(id, fetchOne("w1", "req-q"));
        Map<String, Object> e = assertError(send(obj("job_id", id)).post(ACK), 400, "invalid_request");
        assertEquals("worker_id", ((Map<?, ?>) e.get("details")).get("field"));
        assertError(send(obj("job_id", id, "error", error("x", "y"))).post(NACK), 400, "invalid_request");
        assertError(send(obj("acks", arr(obj("job_id", id)))).post("/ojs/v1/workers/ack/batch"), 400,
                "invalid_request");
        assertEquals("active", Api.state(id));
        assertEquals(200, send(obj("job_id", id, "worker_id", "w1")).post(ACK).statusCode());
        assertEquals("completed", Api.state(id));
    }
}
