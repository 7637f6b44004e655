package dev.steadfast.http;

import static dev.steadfast.testsupport.Api.OJS_JSON;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.job;
import static dev.steadfast.testsupport.Api.newUuidV7;
import static dev.steadfast.testsupport.Api.obj;
import static dev.steadfast.testsupport.Api.request;
import static dev.steadfast.testsupport.JsonPaths.path;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.testsupport.Api;
import dev.steadfast.testsupport.JobsInState;
import dev.steadfast.testsupport.OpenApiContract;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI document served at {@code /q/openapi} tells the truth about the API. It is the shipped
 * META-INF/openapi.yaml unchanged (no annotation scanning adds to it); it lists exactly the routes the
 * application's resources serve, and no console route; and every operation in it is called for real, with good
 * requests and bad ones, each answer checked by {@link OpenApiContract} (declared status, declared media type,
 * body valid against the declared schema, required headers present). Finally every operation must have been seen
 * answering every status it declares, except the statuses any /ojs request can get from the HTTP frame or an
 * outage (401, 403, 413, 414, 431, 500, 503): a declared status nobody can produce is a lie too. 401 and 403 are
 * checked by {@link OpenApiAuthContractTest}; 422 for an unsupported OJS-Version is checked here on every
 * operation.
 */
@QuarkusTest
class OpenApiContractTest {

    /** Statuses the frame or an outage can give any /ojs operation; not required to be seen per operation. */
    static final Set<Integer> FRAME = Set.of(401, 403, 413, 414, 431, 500, 503);

    @TestHTTPResource("/")
    URL root;

    @jakarta.inject.Inject
    dev.steadfast.store.webhooks.WebhookStore webhookStore;

    @jakarta.inject.Inject
    io.quarkus.scheduler.Scheduler scheduler;

    private OpenApiContract contract;

    @Test
    void theServedDocumentIsTheShippedOneInYamlAndJson() throws Exception {
        Response json = request().get("/q/openapi?format=json");
        assertEquals(200, json.statusCode());
        assertTrue(json.contentType().startsWith("application/json"), json.contentType());
        ObjectMapper m = new ObjectMapper();
        assertEquals(OpenApiContract.shippedDocument(), m.readTree(json.asString()),
                "/q/openapi?format=json is not META-INF/openapi.yaml as shipped (did annotation scanning add to it?)");
        Response yaml = request().get("/q/openapi");
        assertEquals(200, yaml.statusCode());
        assertEquals(OpenApiContract.shippedDocument(),
                new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(yaml.asString()));
    }

    @Test
    void theDocumentListsExactlyTheRoutesTheResourcesServe() throws Exception {
        OpenApiContract c = new OpenApiContract(request().get("/q/openapi?format=json").asString());
        Set<String> documented = new TreeSet<>();
        for (String op : c.operations()) {
            String path = op.substring(op.indexOf(' ') + 1);
            assertFalse(path.startsWith("/admin") || path.startsWith("/q/"), "documented: " + op);
            documented.add(normalize(op));
        }
        Set<String> served = routes(false);
        assertEquals(served, documented, "routes served outside the console vs operations in the document");
        for (String console : routes(true)) {
            // the console's pages, and GET / (console.ConsoleEntry), which leads a browser to them
            String path = console.substring(console.indexOf(' ') + 1);
            assertTrue(path.startsWith("/admin") || console.equals("GET /"), console);
            assertFalse(documented.contains(console), "a console route is documented: " + console);
        }
    }

    @Test
    void everyOperationAnswersAsDocumented() throws Exception {
        contract = new OpenApiContract(request().get("/q/openapi?format=json").asString());
        good("POST /ojs/v1/admin/reset", "/ojs/v1/admin/reset", null).then().statusCode(200);
        system();
        jobs();
        workflows();
        workers();
        queues();
        schemas();
        rateLimits();
        adminJobs();
        cron();
        events();
        deadLetters();
        errorGroups();
        audit();
        tenants();
        webhooks();
        refusalsEverywhere();
        contract.assertSeen(op -> {
            Set<Integer> want = new TreeSet<>(contract.declared(op));
            want.removeAll(FRAME);
            if (op.equals("POST /ojs/v1/admin/reset")) {
                want.remove(404); // only with steadfast.admin.reset-enabled=false: OpenApiAuthContractTest
            }
            if (!op.startsWith("GET /ojs/v1/health") && !op.equals("GET /health") && !op.equals("GET /ready")) {
                return want;
            }
            want.remove(503); // the database would have to be down
            return want;
        });
    }

    // ---- areas

    private void system() {
        good("GET /ojs/manifest", "/ojs/manifest", null);
        good("GET /ojs/v1/health", "/ojs/v1/health", null);
        good("GET /ojs/v1/retry-policies", "/ojs/v1/retry-policies", null);
        good("GET /health", "/health", null);
        good("GET /ready", "/ready", null);
        Response metrics = good("GET /metrics", "/metrics", null);
        assertTrue(metrics.asString().contains("# TYPE"), "Prometheus text");
    }

    private void jobs() {
        String q = "oa-jobs";
        String id = newUuidV7();
        Response created = good("POST /ojs/v1/jobs", "/ojs/v1/jobs",
                obj("id", id, "type", "oa.push", "args", arr(1, "two"), "meta", obj("k", "v"),
                        "options", obj("queue", q, "tags", arr("t"), "retry", Api.fixedRetry(3, "PT1S"))));
        assertEquals(201, created.statusCode(), created.asString());
        assertEquals("/ojs/v1/jobs/" + id, URI.create(created.header("Location")).getPath());
        expect(409, bad("POST /ojs/v1/jobs", "/ojs/v1/jobs", obj("id", id, "type", "oa.push", "args", arr())));
        expect(400, bad("POST /ojs/v1/jobs", "/ojs/v1/jobs", obj("type", "oa.push")));
        expect(400, bad("POST /ojs/v1/jobs", "/ojs/v1/jobs", "[1, 2"));
        expect(422, bad("POST /ojs/v1/jobs", "/ojs/v1/jobs",
                obj("type", "oa.push", "args", arr(), "options", obj("retry", obj("initial_interval", "soon")))));
        expect(400, send("POST", "/ojs/v1/jobs", "type=oa.push", "application/x-www-form-urlencoded", "POST /ojs/v1/jobs"));
        expect(413, send("POST", "/ojs/v1/jobs", "{\"type\":\"oa.big\",\"args\":[\"" + "x".repeat(1_100_000) + "\"]}",
                OJS_JSON, "POST /ojs/v1/jobs"));
        Map<String, Object> unique = obj("type", "oa.unique", "args", arr(), "options",
                obj("queue", q, "unique", obj("keys", arr("type"), "on_conflict", "ignore")));
        expect(201, good("POST /ojs/v1/jobs", "/ojs/v1/jobs", unique));
        expect(200, good("POST /ojs/v1/jobs", "/ojs/v1/jobs", unique));

        expect(201, good("POST /ojs/v1/jobs/batch", "/ojs/v1/jobs/batch",
                obj("jobs", arr(job("oa.batch", q), job("oa.batch", q)))));
        expect(400, bad("POST /ojs/v1/jobs/batch", "/ojs/v1/jobs/batch", obj("jobs", arr())));
        expect(409, bad("POST /ojs/v1/jobs/batch", "/ojs/v1/jobs/batch",
                obj("jobs", arr(obj("id", id, "type", "oa.batch", "args", arr())))));

        expect(200, good("POST /ojs/v1/jobs/bulk", "/ojs/v1/jobs/bulk", obj("jobs", arr(job("oa.bulk", q)))));
        expect(207, good("POST /ojs/v1/jobs/bulk", "/ojs/v1/jobs/bulk",
                obj("jobs", arr(job("oa.bulk", q), obj("type", "Not A Type", "args", arr())))));
        expect(422, good("POST /ojs/v1/jobs/bulk", "/ojs/v1/jobs/bulk",
                obj("jobs", arr(obj("id", id, "type", "oa.bulk", "args", arr())))));
        expect(409, good("POST /ojs/v1/jobs/bulk", "/ojs/v1/jobs/bulk",
                obj("atomicity", "atomic", "jobs", arr(obj("id", id, "type", "oa.bulk", "args", arr())))));
        expect(422, bad("POST /ojs/v1/jobs/bulk", "/ojs/v1/jobs/bulk",
                obj("idempotency_key", "k", "jobs", arr(job("oa.bulk", q)))));
        expect(400, bad("POST /ojs/v1/jobs/bulk", "/ojs/v1/jobs/bulk", obj("jobs", arr(), "atomicity", "some")));
        List<Object> many = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            many.add(obj("type", "a.b", "args", arr()));
        }
        expect(413, bad("POST /ojs/v1/jobs/bulk", "/ojs/v1/jobs/bulk", obj("jobs", many)));

        backpressure();

        expect(200, good("GET /ojs/v1/jobs/{id}", "/ojs/v1/jobs/" + id, null));
        expect(404, bad("GET /ojs/v1/jobs/{id}", "/ojs/v1/jobs/" + newUuidV7(), null));
        expect(404, bad("GET /ojs/v1/jobs/{id}", "/ojs/v1/jobs/not-a-job", null));
        expect(200, good("DELETE /ojs/v1/jobs/{id}", "/ojs/v1/jobs/" + id, null));
        expect(409, bad("DELETE /ojs/v1/jobs/{id}", "/ojs/v1/jobs/" + id, null));
        expect(404, bad("DELETE /ojs/v1/jobs/{id}", "/ojs/v1/jobs/" + newUuidV7(), null));

        String pending = Api.enqueue(obj("type", "oa.pending", "args", arr(), "options",
                obj("queue", q, "pending", true)));
        expect(200, good("POST /ojs/v1/jobs/{id}/activate", "/ojs/v1/jobs/" + pending + "/activate", null));
        expect(409, bad("POST /ojs/v1/jobs/{id}/activate", "/ojs/v1/jobs/" + pending + "/activate", null));
        expect(404, bad("POST /ojs/v1/jobs/{id}/activate", "/ojs/v1/jobs/" + newUuidV7() + "/activate", null));

        String pq = "oa-progress";
        String active = Api.enqueue("oa.progress", pq);
        Api.fetchOne("w-progress", pq);
        expect(200, good("GET /ojs/v1/jobs/{id}/progress", "/ojs/v1/jobs/" + active + "/progress", null));
        expect(200, good("PUT /ojs/v1/jobs/{id}/progress", "/ojs/v1/jobs/" + active + "/progress",
                obj("progress", 0.5, "message", "half", "data", obj("rows", 5), "worker_id", "w-progress")));
        expect(200, good("GET /ojs/v1/jobs/{id}/progress", "/ojs/v1/jobs/" + active + "/progress", null));
        expect(400, bad("PUT /ojs/v1/jobs/{id}/progress", "/ojs/v1/jobs/" + active + "/progress", obj()));
        expect(404, bad("PUT /ojs/v1/jobs/{id}/progress", "/ojs/v1/jobs/" + newUuidV7() + "/progress",
                obj("progress", 0.1)));
        // fire-and-forget: a report for a job that is not active changes nothing and is still 200
        expect(200, good("PUT /ojs/v1/jobs/{id}/progress", "/ojs/v1/jobs/" + pending + "/progress",
                obj("progress", 0.1)));
        expect(404, bad("GET /ojs/v1/jobs/{id}/progress", "/ojs/v1/jobs/" + newUuidV7() + "/progress", null));
        checkpoints(pending);
    }

    /** The checkpoint routes, both SDKs' ({@code pending} is a job that is not active). */
    private void checkpoints(String pending) {
        String q = "oa-checkpoint";
        String id = Api.enqueue("oa.checkpoint", q);
        Api.fetchOne("w-checkpoint", q);
        String cp = "/ojs/v1/jobs/" + id + "/checkpoint";
        String js = "/ojs/v1/checkpoints/" + id;
        String unknown = newUuidV7();
        expect(404, bad("GET /ojs/v1/jobs/{id}/checkpoint", cp, null));
        expect(200, good("GET /ojs/v1/checkpoints/{id}/resume", js + "/resume", null));
        expect(200, good("POST /ojs/v1/jobs/{id}/checkpoint", cp, obj("state", obj("rows", 5), "worker_id", "w-checkpoint")));
        expect(200, good("PUT /ojs/v1/jobs/{id}/checkpoint", cp, obj("state", 6)));
        expect(200, good("POST /ojs/v1/checkpoints/{id}", js, obj("state", obj("fetched", true), "step_index", 1,
                "metadata", obj("_replay_log", "[]", "attempt", "1"))));
        expect(200, good("GET /ojs/v1/jobs/{id}/checkpoint", cp, null));
        expect(200, good("GET /ojs/v1/checkpoints/{id}/resume", js + "/resume", null));
        expect(400, bad("POST /ojs/v1/jobs/{id}/checkpoint", cp, obj()));
        expect(400, bad("PUT /ojs/v1/jobs/{id}/checkpoint", cp, obj("worker_id", "w-checkpoint")));
        expect(400, bad("POST /ojs/v1/checkpoints/{id}", js, obj("state", 1, "metadata", arr())));
        String other = "/ojs/v1/jobs/" + pending + "/checkpoint";
        expect(409, bad("POST /ojs/v1/jobs/{id}/checkpoint", other, obj("state", 1)));
        expect(409, bad("PUT /ojs/v1/jobs/{id}/checkpoint", other, obj("state", 1)));
        expect(409, bad("POST /ojs/v1/checkpoints/{id}", "/ojs/v1/checkpoints/" + pending, obj("state", 1)));
        expect(404, bad("POST /ojs/v1/jobs/{id}/checkpoint", "/ojs/v1/jobs/" + unknown + "/checkpoint", obj("state", 1)));
        expect(404, bad("PUT /ojs/v1/jobs/{id}/checkpoint", "/ojs/v1/jobs/" + unknown + "/checkpoint", obj("state", 1)));
        expect(404, bad("POST /ojs/v1/checkpoints/{id}", "/ojs/v1/checkpoints/" + unknown, obj("state", 1)));
        expect(404, bad("GET /ojs/v1/checkpoints/{id}/resume", "/ojs/v1/checkpoints/" + unknown + "/resume", null));
        expect(200, good("DELETE /ojs/v1/jobs/{id}/checkpoint", cp, null));
        expect(200, good("DELETE /ojs/v1/checkpoints/{id}", js, null));
        expect(404, bad("DELETE /ojs/v1/jobs/{id}/checkpoint", "/ojs/v1/jobs/" + unknown + "/checkpoint", null));
        expect(404, bad("DELETE /ojs/v1/checkpoints/{id}", "/ojs/v1/checkpoints/" + unknown, null));
        // FETCH answers the job with its checkpoint (the Job schema's checkpoint)
        String resumed = Api.enqueue(obj("type", "oa.checkpoint", "args", arr(), "options", obj("queue", q + "-2",
                "retry", Api.fixedRetry(2, "PT0.000001S"))));
        Api.fetchOne("w-checkpoint", q + "-2");
        expect(200, good("PUT /ojs/v1/jobs/{id}/checkpoint", "/ojs/v1/jobs/" + resumed + "/checkpoint",
                obj("state", obj("rows", 1))));
        Api.nack(resumed, Api.error("E", "boom")).then().statusCode(200);
        Response again = expect(200, good("POST /ojs/v1/workers/fetch", "/ojs/v1/workers/fetch",
                obj("queues", arr(q + "-2"), "worker_id", "w-checkpoint")));
        assertEquals(1, (Integer) path(again, "jobs[0].checkpoint.sequence"));
    }

    private void backpressure() {
        String q = "oa-bounded";
        expect(200, good("PUT /ojs/v1/admin/queues/{name}/config", "/ojs/v1/admin/queues/" + q + "/config",
                obj("backpressure", obj("max_depth", 2, "strategy", "reject", "warning_threshold", 0.5))));
        expect(200, good("GET /ojs/v1/admin/queues/{name}/config", "/ojs/v1/admin/queues/" + q + "/config", null));
        expect(400, bad("PUT /ojs/v1/admin/queues/{name}/config", "/ojs/v1/admin/queues/" + q + "/config",
                obj("backpressure", obj("max_depth", 2, "strategy", "drop_oldest"))));
        Response first = good("POST /ojs/v1/jobs", "/ojs/v1/jobs", job("oa.bounded", q));
        expect(201, first);
        assertNotNull(first.header("X-OJS-Queue-Pressure"), "past the warning threshold");
        expect(201, good("POST /ojs/v1/jobs/batch", "/ojs/v1/jobs/batch", obj("jobs", arr(job("oa.bounded", q)))));
        Response full = expect(429, good("POST /ojs/v1/jobs", "/ojs/v1/jobs", job("oa.bounded", q)));
        assertEquals("2", full.header("X-OJS-Queue-Bound"));
        expect(429, good("POST /ojs/v1/jobs/batch", "/ojs/v1/jobs/batch", obj("jobs", arr(job("oa.bounded", q)))));
        expect(429, good("POST /ojs/v1/jobs/bulk", "/ojs/v1/jobs/bulk", obj("jobs", arr(job("oa.bounded", q)))));
        expect(200, good("PUT /ojs/v1/admin/queues/{name}/config", "/ojs/v1/admin/queues/" + q + "/config",
                obj("backpressure", null)));
    }

    private void workflows() {
        String q = "oa-flow";
        Map<String, Object> chain = obj("type", "chain", "name", "oa", "steps",
                arr(job("oa.step", q), job("oa.step", q)));
        Response created = expect(201, good("POST /ojs/v1/workflows", "/ojs/v1/workflows", chain));
        String id = path(created, "workflow.id");
        expect(201, good("POST /ojs/v1/workflows", "/ojs/v1/workflows", obj("type", "batch", "jobs",
                arr(job("oa.member", q)), "callbacks", obj("on_complete", job("oa.done", q)))));
        expect(201, good("POST /ojs/v1/workflows", "/ojs/v1/workflows", obj("name", "oa-binding", "options",
                obj("queue", q), "steps", arr(obj("id", "s0", "type", "oa.step", "args", arr()),
                        obj("id", "s1", "type", "oa.step", "args", arr(), "depends_on", arr("s0"))))));
        expect(201, good("POST /ojs/v1/workflows", "/ojs/v1/workflows", obj("name", "oa-binding-batch", "steps",
                arr(obj("id", "s0", "type", "oa.step", "args", arr(), "options", obj("queue", q)),
                        obj("id", "on_complete", "type", "oa.step", "args", arr(), "depends_on", arr("s0"))))));
        Response nested = expect(201, good("POST /ojs/v1/workflows", "/ojs/v1/workflows", obj("type", "chain",
                "steps", arr(job("oa.step", q), obj("type", "group", "jobs", arr(job("oa.step", q), job("oa.step", q)))))));
        String inner = path(nested, "workflow.steps[1].workflow_id");
        expect(200, good("GET /ojs/v1/workflows/{id}", "/ojs/v1/workflows/" + inner, null));
        expect(422, bad("POST /ojs/v1/workflows", "/ojs/v1/workflows", obj("steps", arr(
                obj("id", "a", "type", "oa.step", "args", arr()), obj("id", "b", "type", "oa.step", "args", arr()),
                obj("id", "c", "type", "oa.step", "args", arr(), "depends_on", arr("a", "b"))))));
        expect(400, bad("POST /ojs/v1/workflows", "/ojs/v1/workflows", obj("steps", arr(job("oa.step", q)))));
        String taken = Api.enqueue("oa.taken", q);
        expect(409, bad("POST /ojs/v1/workflows", "/ojs/v1/workflows", obj("type", "group", "jobs",
                arr(obj("id", taken, "type", "oa.step", "args", arr())))));
        expect(422, bad("POST /ojs/v1/workflows", "/ojs/v1/workflows", obj("type", "group", "jobs",
                arr(obj("type", "oa.step", "args", arr(), "depends_on", arr("a"))))));
        expect(200, good("GET /ojs/v1/workflows/{id}", "/ojs/v1/workflows/" + id, null));
        expect(404, bad("GET /ojs/v1/workflows/{id}", "/ojs/v1/workflows/" + newUuidV7(), null));
        expect(200, good("DELETE /ojs/v1/workflows/{id}", "/ojs/v1/workflows/" + id, null));
        expect(409, bad("DELETE /ojs/v1/workflows/{id}", "/ojs/v1/workflows/" + id, null));
        expect(404, bad("DELETE /ojs/v1/workflows/{id}", "/ojs/v1/workflows/" + newUuidV7(), null));
        Response listed = expect(200, good("GET /ojs/v1/workflows", "/ojs/v1/workflows?limit=2", null));
        expect(200, good("GET /ojs/v1/workflows", "/ojs/v1/workflows?nested=true&type=group&cursor="
                + path(listed, "pagination.next_cursor"), null));
        expect(400, bad("GET /ojs/v1/workflows", "/ojs/v1/workflows?state=sleeping", null));
    }

    private void workers() {
        String q = "oa-work";
        String w = "w-oa";
        for (int i = 0; i < 6; i++) {
            Api.enqueue("oa.work", q);
        }
        Response fetched = expect(200, good("POST /ojs/v1/workers/fetch", "/ojs/v1/workers/fetch",
                obj("queues", arr(q), "count", 6, "worker_id", w, "visibility_timeout_ms", 60000)));
        List<String> ids = path(fetched, "jobs.id");
        assertEquals(6, ids.size());
        expect(200, good("POST /ojs/v1/workers/fetch", "/ojs/v1/workers/fetch", obj("queues", arr("oa-empty"))));
        expect(400, bad("POST /ojs/v1/workers/fetch", "/ojs/v1/workers/fetch", obj("queues", arr())));

        expect(200, good("POST /ojs/v1/workers/ack", "/ojs/v1/workers/ack",
                obj("job_id", ids.get(0), "worker_id", w, "result", obj("ok", true))));
        expect(409, bad("POST /ojs/v1/workers/ack", "/ojs/v1/workers/ack", obj("job_id", ids.get(0), "worker_id", w)));
        expect(404, bad("POST /ojs/v1/workers/ack", "/ojs/v1/workers/ack", obj("job_id", newUuidV7())));
        expect(400, bad("POST /ojs/v1/workers/ack", "/ojs/v1/workers/ack", obj("job_id", "nope")));

        expect(200, good("POST /ojs/v1/workers/ack/batch", "/ojs/v1/workers/ack/batch", obj("worker_id", w, "acks",
                arr(obj("job_id", ids.get(1), "result", 1), obj("job_id", ids.get(0)),
                        obj("job_id", ids.get(2), "error", obj("message", "boom"))))));
        expect(400, bad("POST /ojs/v1/workers/ack/batch", "/ojs/v1/workers/ack/batch", obj("acks", arr())));

        expect(200, good("POST /ojs/v1/workers/nack", "/ojs/v1/workers/nack", obj("job_id", ids.get(3),
                "worker_id", w, "error", obj("code", "oa", "type", "OaError", "message", "failed",
                        "backtrace", arr("at x")))));
        expect(409, bad("POST /ojs/v1/workers/nack", "/ojs/v1/workers/nack", obj("job_id", ids.get(1),
                "error", obj("message", "late"))));
        expect(404, bad("POST /ojs/v1/workers/nack", "/ojs/v1/workers/nack", obj("job_id", newUuidV7(),
                "error", obj("message", "x"))));
        expect(400, bad("POST /ojs/v1/workers/nack", "/ojs/v1/workers/nack", obj("job_id", ids.get(4))));

        jobPathAnswers();

        Map<String, Object> beat = obj("worker_id", w, "active_jobs", arr(ids.get(4), ids.get(5)),
                "hostname", "oa-host", "queues", arr(q));
        expect(200, good("POST /ojs/v1/workers/heartbeat", "/ojs/v1/workers/heartbeat", beat));
        expect(200, good("POST /ojs/v1/workers/beat", "/ojs/v1/workers/beat", beat));
        expect(400, bad("POST /ojs/v1/workers/heartbeat", "/ojs/v1/workers/heartbeat", obj("active_jobs", arr())));
        expect(400, bad("POST /ojs/v1/workers/beat", "/ojs/v1/workers/beat", obj("worker_id", w, "state", "asleep")));
        Map<String, Object> thief = obj("worker_id", "w-other", "active_jobs", arr(ids.get(4)));
        expect(409, bad("POST /ojs/v1/workers/heartbeat", "/ojs/v1/workers/heartbeat", thief));
        expect(409, bad("POST /ojs/v1/workers/beat", "/ojs/v1/workers/beat", thief));

        expect(200, good("GET /ojs/v1/workers/{id}/health", "/ojs/v1/workers/" + w + "/health", null));
        expect(404, bad("GET /ojs/v1/workers/{id}/health", "/ojs/v1/workers/w-never/health", null));

        expect(200, good("POST /ojs/v1/workers/progress", "/ojs/v1/workers/progress",
                obj("job_id", ids.get(5), "percentage", 40, "message", "m", "worker_id", w)));
        expect(400, bad("POST /ojs/v1/workers/progress", "/ojs/v1/workers/progress", obj("job_id", ids.get(5))));
        expect(404, bad("POST /ojs/v1/workers/progress", "/ojs/v1/workers/progress",
                obj("job_id", newUuidV7(), "percentage", 1)));
        expect(200, good("POST /ojs/v1/workers/progress", "/ojs/v1/workers/progress",
                obj("job_id", ids.get(0), "percentage", 1)));

        expect(200, good("POST /ojs/v1/workers/snooze", "/ojs/v1/workers/snooze",
                obj("job_id", ids.get(4), "worker_id", w, "delay", "PT1H")));
        expect(200, good("POST /ojs/v1/workers/nack", "/ojs/v1/workers/nack",
                obj("job_id", ids.get(5), "worker_id", w, "requeue", true)));
        expect(409, bad("POST /ojs/v1/workers/snooze", "/ojs/v1/workers/snooze", obj("job_id", ids.get(4))));
        expect(404, bad("POST /ojs/v1/workers/snooze", "/ojs/v1/workers/snooze", obj("job_id", newUuidV7())));
        expect(400, bad("POST /ojs/v1/workers/snooze", "/ojs/v1/workers/snooze",
                obj("job_id", ids.get(4), "delay_ms", -1)));
    }

    /** ACK and NACK addressed by the job's path (aliases of the worker routes). */
    private void jobPathAnswers() {
        String q = "oa-job-path";
        String w = "w-oa-path";
        Api.enqueue("oa.path", q);
        Api.enqueue("oa.path", q);
        List<String> ids = path(expect(200, good("POST /ojs/v1/workers/fetch", "/ojs/v1/workers/fetch",
                obj("queues", arr(q), "count", 2, "worker_id", w))), "jobs.id");
        String ack = "POST /ojs/v1/jobs/{id}/ack";
        expect(200, good(ack, "/ojs/v1/jobs/" + ids.get(0) + "/ack", obj("worker_id", w, "result", obj("ok", 1))));
        expect(409, bad(ack, "/ojs/v1/jobs/" + ids.get(0) + "/ack", obj("worker_id", w)));
        expect(404, bad(ack, "/ojs/v1/jobs/" + newUuidV7() + "/ack", obj()));
        expect(400, bad(ack, "/ojs/v1/jobs/" + ids.get(1) + "/ack", obj("job_id", ids.get(0))));
        String nack = "POST /ojs/v1/jobs/{id}/nack";
        expect(400, bad(nack, "/ojs/v1/jobs/" + ids.get(1) + "/nack", obj("worker_id", w)));
        expect(200, good(nack, "/ojs/v1/jobs/" + ids.get(1) + "/nack", obj("worker_id", w,
                "error", obj("code", "oa", "message", "failed"))));
        expect(409, bad(nack, "/ojs/v1/jobs/" + ids.get(1) + "/nack", obj("error", obj("message", "late"))));
        expect(404, bad(nack, "/ojs/v1/jobs/" + newUuidV7() + "/nack", obj("error", obj("message", "x"))));
    }

    private void queues() {
        String q = "oa-work";
        expect(200, good("GET /ojs/v1/queues", "/ojs/v1/queues", null));
        expect(200, good("GET /ojs/v1/queues/{name}/stats", "/ojs/v1/queues/" + q + "/stats", null));
        expect(404, bad("GET /ojs/v1/queues/{name}/stats", "/ojs/v1/queues/oa-none/stats", null));
        expect(200, good("POST /ojs/v1/queues/{name}/pause", "/ojs/v1/queues/" + q + "/pause", null));
        expect(200, good("POST /ojs/v1/queues/{name}/resume", "/ojs/v1/queues/" + q + "/resume", null));
        expect(400, bad("POST /ojs/v1/queues/{name}/pause", "/ojs/v1/queues/Bad!Queue/pause", null));
        expect(400, bad("POST /ojs/v1/queues/{name}/resume", "/ojs/v1/queues/Bad!Queue/resume", null));

        expect(200, good("GET /ojs/v1/admin/queues", "/ojs/v1/admin/queues", null));
        expect(200, good("GET /ojs/v1/admin/queues/{name}", "/ojs/v1/admin/queues/" + q, null));
        expect(404, bad("GET /ojs/v1/admin/queues/{name}", "/ojs/v1/admin/queues/oa-none", null));
        expect(200, good("POST /ojs/v1/admin/queues/{name}/pause", "/ojs/v1/admin/queues/" + q + "/pause", null));
        expect(200, good("POST /ojs/v1/admin/queues/{name}/resume", "/ojs/v1/admin/queues/" + q + "/resume", null));

        String limits = "/ojs/v1/admin/queues/" + q + "/rate-limit";
        expect(200, good("PUT /ojs/v1/admin/queues/{name}/rate-limit", limits,
                obj("concurrency", 3, "rate", obj("limit", 10, "period", "PT1M"))));
        expect(200, good("GET /ojs/v1/admin/queues/{name}/rate-limit", limits, null));
        expect(400, bad("PUT /ojs/v1/admin/queues/{name}/rate-limit", limits, obj("rate", obj("limit", -1))));
        expect(200, good("DELETE /ojs/v1/admin/queues/{name}/rate-limit", limits, null));
        expect(200, good("GET /ojs/v1/admin/queues/{name}/rate-limit", limits, null));
    }

    private void rateLimits() {
        Response created = good("POST /ojs/v1/jobs", "/ojs/v1/jobs", obj("type", "oa.keyed", "args", arr(),
                "options", obj("queue", "oa-keyed", "rate_limit", obj("key", "oa-key", "concurrency", 2,
                        "rate", obj("limit", 10, "period", "PT1M"), "throttle", obj("limit", 5, "period", "PT1S")))));
        assertEquals(201, created.statusCode(), created.asString());
        assertEquals("10", created.header("X-RateLimit-Limit"), "the rate window's limit");
        expect(200, good("GET /ojs/v1/rate-limits/{key}", "/ojs/v1/rate-limits/oa-key", null));
        expect(404, bad("GET /ojs/v1/rate-limits/{key}", "/ojs/v1/rate-limits/oa-unknown-key", null));
        expect(400, bad("GET /ojs/v1/rate-limits/{key}", "/ojs/v1/rate-limits/-oa", null));
    }

    private void schemas() {
        String uri = "urn:oa:email.send:v1";
        String path = "/ojs/v1/schemas/" + java.net.URLEncoder.encode(uri, StandardCharsets.UTF_8);
        Map<String, Object> schema = obj("uri", uri, "type", "email.send", "version", 1,
                "schema", obj("$schema", "https://json-schema.org/draft/2020-12/schema", "type", "array"));
        expect(201, good("POST /ojs/v1/schemas", "/ojs/v1/schemas", schema));
        expect(409, bad("POST /ojs/v1/schemas", "/ojs/v1/schemas", schema));
        expect(400, bad("POST /ojs/v1/schemas", "/ojs/v1/schemas", obj("uri", "urn:x", "type", "email.send")));
        expect(200, good("GET /ojs/v1/schemas", "/ojs/v1/schemas?limit=10&offset=0", null));
        expect(400, bad("GET /ojs/v1/schemas", "/ojs/v1/schemas?limit=0", null));
        expect(200, good("GET /ojs/v1/schemas/{uri}", path, null));
        expect(200, good("DELETE /ojs/v1/schemas/{uri}", path, null));
        expect(404, bad("GET /ojs/v1/schemas/{uri}", path, null));
        expect(404, bad("DELETE /ojs/v1/schemas/{uri}", path, null));
        // by type and version (ojs-schema-registry.md, ojs-job-versioning.md 11)
        Map<String, Object> v1 = obj("schema", obj("type", "array", "items", obj("type", "string")));
        expect(201, good("PUT /ojs/v1/admin/schemas/{type}/{version}", "/ojs/v1/admin/schemas/oa.typed/1", v1));
        expect(200, good("PUT /ojs/v1/admin/schemas/{type}/{version}", "/ojs/v1/admin/schemas/oa.typed/1", v1));
        expect(409, bad("PUT /ojs/v1/admin/schemas/{type}/{version}", "/ojs/v1/admin/schemas/oa.typed/1",
                obj("schema", obj("type", "array", "minItems", 1))));
        expect(201, good("POST /ojs/v1/schemas", "/ojs/v1/schemas", obj("job_type", "oa.typed", "version", "2.0.0",
                "schema", obj("type", "array"))));
        expect(200, good("GET /ojs/v1/admin/schemas/{type}/{version}", "/ojs/v1/admin/schemas/oa.typed/1", null));
        expect(404, bad("GET /ojs/v1/admin/schemas/{type}/{version}", "/ojs/v1/admin/schemas/oa.typed/3", null));
        expect(200, good("GET /ojs/v1/admin/schemas/{type}", "/ojs/v1/admin/schemas/oa.typed", null));
        expect(404, bad("GET /ojs/v1/admin/schemas/{type}", "/ojs/v1/admin/schemas/oa.none", null));
        expect(200, good("GET /ojs/v1/admin/schemas/{type}/versions", "/ojs/v1/admin/schemas/oa.typed/versions", null));
        expect(200, good("GET /ojs/v1/schemas/{type}/versions", "/ojs/v1/schemas/oa.typed/versions", null));
        expect(200, good("GET /ojs/v1/schemas/{uri}", "/ojs/v1/schemas/oa.typed", null));
        expect(200, good("PUT /ojs/v1/admin/schemas/{type}/validation", "/ojs/v1/admin/schemas/oa.typed/validation",
                obj("mode", "strict")));
        expect(200, good("GET /ojs/v1/admin/schemas/{type}/validation", "/ojs/v1/admin/schemas/oa.typed/validation",
                null));
        expect(200, good("DELETE /ojs/v1/schemas/{type}/{version}", "/ojs/v1/schemas/oa.typed/2.0", null));
        expect(404, bad("DELETE /ojs/v1/schemas/{type}/{version}", "/ojs/v1/schemas/oa.typed/2.0", null));
        expect(200, good("DELETE /ojs/v1/admin/schemas/{type}/{version}", "/ojs/v1/admin/schemas/oa.typed/1", null));
        expect(404, bad("DELETE /ojs/v1/admin/schemas/{type}/{version}", "/ojs/v1/admin/schemas/oa.typed/1", null));
    }

    private void adminJobs() {
        String q = "oa-admin";
        String done = JobsInState.completed(q, "oa.admin");
        String active = Api.enqueue("oa.admin", q);
        Api.fetchOne("w-admin", q);
        String waiting = JobsInState.scheduled(q, "oa.admin");
        String base = "/ojs/v1/admin/jobs/";
        expect(200, good("GET /ojs/v1/admin/jobs/{id}", base + done, null));
        expect(404, bad("GET /ojs/v1/admin/jobs/{id}", base + newUuidV7(), null));
        expect(200, good("POST /ojs/v1/admin/jobs/{id}/cancel", base + waiting + "/cancel", null));
        expect(409, bad("POST /ojs/v1/admin/jobs/{id}/cancel", base + done + "/cancel", null));
        expect(404, bad("POST /ojs/v1/admin/jobs/{id}/cancel", base + newUuidV7() + "/cancel", null));
        expect(200, good("POST /ojs/v1/admin/jobs/{id}/retry", base + waiting + "/retry", null));
        expect(409, bad("POST /ojs/v1/admin/jobs/{id}/retry", base + active + "/retry", null));
        expect(404, bad("POST /ojs/v1/admin/jobs/{id}/retry", base + newUuidV7() + "/retry", null));
        expect(200, good("POST /ojs/v1/admin/jobs/bulk/retry", base + "bulk/retry",
                obj("filter", obj("state", "cancelled", "queue", q), "confirm", true)));
        expect(400, bad("POST /ojs/v1/admin/jobs/bulk/retry", base + "bulk/retry", obj("filter", obj("queue", q))));
        expect(200, good("GET /ojs/v1/admin/jobs/count", base + "count?queue=" + q, null));
        expect(200, good("GET /ojs/v1/admin/jobs/count", base + "count", null));
        expect(400, bad("GET /ojs/v1/admin/jobs/count", base + "count?queue=Bad!Queue", null));
        expect(200, good("DELETE /ojs/v1/admin/jobs/completed", base + "completed?before=2000-01-01T00:00:00Z", null));
        expect(400, bad("DELETE /ojs/v1/admin/jobs/completed", base + "completed", null));
        expect(409, bad("DELETE /ojs/v1/admin/jobs/{id}", base + active, null));
        expect(200, good("DELETE /ojs/v1/admin/jobs/{id}", base + done, null));
        expect(404, bad("DELETE /ojs/v1/admin/jobs/{id}", base + done, null));

        expect(200, good("GET /ojs/v1/admin/metrics/summary", "/ojs/v1/admin/metrics/summary", null));
        expect(200, good("GET /ojs/v1/admin/stats", "/ojs/v1/admin/stats", null));
        expect(200, good("GET /ojs/v1/admin/workers", "/ojs/v1/admin/workers", null));
        String tooLong = "w".repeat(256);
        for (String action : List.of("quiet", "terminate", "resume")) {
            String op = "POST /ojs/v1/admin/workers/{id}/" + action;
            expect(200, good(op, "/ojs/v1/admin/workers/w-oa/" + action, null));
            expect(400, bad(op, "/ojs/v1/admin/workers/" + tooLong + "/" + action, null));
        }
    }

    private void cron() {
        Map<String, Object> daily = obj("name", "oa-daily", "cron", "0 3 * * *", "timezone", "UTC", "type", "oa.cron",
                "args", arr(), "options", obj("queue", "oa-cron"), "overlap_policy", "skip", "description", "d");
        expect(201, good("POST /ojs/v1/cron", "/ojs/v1/cron", daily));
        expect(201, good("POST /ojs/v1/cron", "/ojs/v1/cron", obj("name", "oa-suite", "expression", "*/5 * * * *",
                "job_template", obj("type", "oa.cron", "args", arr(1)))));
        expect(409, bad("POST /ojs/v1/cron", "/ojs/v1/cron", daily));
        expect(400, bad("POST /ojs/v1/cron", "/ojs/v1/cron", obj("name", "oa-bad", "cron", "never", "type", "oa.cron",
                "args", arr())));
        expect(200, good("GET /ojs/v1/cron", "/ojs/v1/cron", null));
        expect(200, good("GET /ojs/v1/cron", "/ojs/v1/cron?page=1&per_page=1", null));
        expect(400, bad("GET /ojs/v1/cron", "/ojs/v1/cron?limit=0", null));
        expect(200, good("GET /ojs/v1/cron/{name}", "/ojs/v1/cron/oa-daily", null));
        expect(404, bad("GET /ojs/v1/cron/{name}", "/ojs/v1/cron/oa-none", null));
        expect(200, good("POST /ojs/v1/cron/{name}/pause", "/ojs/v1/cron/oa-daily/pause", null));
        expect(404, bad("POST /ojs/v1/cron/{name}/pause", "/ojs/v1/cron/oa-none/pause", null));
        expect(200, good("POST /ojs/v1/cron/{name}/resume", "/ojs/v1/cron/oa-daily/resume", null));
        expect(404, bad("POST /ojs/v1/cron/{name}/resume", "/ojs/v1/cron/oa-none/resume", null));
        expect(200, good("DELETE /ojs/v1/cron/{name}", "/ojs/v1/cron/oa-daily", null));
        expect(404, bad("DELETE /ojs/v1/cron/{name}", "/ojs/v1/cron/oa-daily", null));
    }

    private void events() throws Exception {
        expect(200, good("GET /ojs/v1/events", "/ojs/v1/events?types=job.enqueued&limit=5", null));
        expect(400, bad("GET /ojs/v1/events", "/ojs/v1/events?limit=0", null));
        expect(400, bad("GET /ojs/v1/events/stream", "/ojs/v1/events/stream?channel=everything", null));
        String op = "GET /ojs/v1/events/stream";
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest req = HttpRequest.newBuilder(root.toURI().resolve("/ojs/v1/events/stream?queues=oa-sse"))
                .header("Accept", "text/event-stream").build();
        CompletableFuture<HttpResponse<Stream<String>>> open = client.sendAsync(req,
                HttpResponse.BodyHandlers.ofLines());
        CompletableFuture<String> first = open.thenApplyAsync(r -> r.body().filter(l -> l.startsWith("data:"))
                .findFirst().orElse(""));
        // The subscription is registered asynchronously: enqueue until one is seen.
        org.awaitility.Awaitility.await("an event on the stream").pollInterval(java.time.Duration.ofMillis(100))
                .atMost(java.time.Duration.ofSeconds(10)).until(() -> {
                    Api.enqueue("oa.sse", "oa-sse");
                    return first.isDone();
                });
        String data = first.get(1, TimeUnit.SECONDS).substring(5).trim();
        HttpResponse<Stream<String>> res = open.get();
        assertNotNull(res, "the stream answered");
        try {
            assertTrue(contract.declared(op).contains(res.statusCode()), "stream status " + res.statusCode());
            String type = res.headers().firstValue("Content-Type").orElse("").split(";", 2)[0].trim();
            assertTrue(contract.document().at("/paths/~1ojs~1v1~1events~1stream/get/responses/200/content")
                    .has(type), "stream Content-Type " + type);
            assertTrue(res.headers().firstValue("X-Request-Id").isPresent(), "X-Request-Id on the stream");
            assertNotNull(data, "an event arrived");
            contract.validate(op + " event", new ObjectMapper().readTree(data),
                    "/paths/~1ojs~1v1~1events~1stream/get/responses/200/content/text~1event-stream/x-event-schema");
            contract.seen().computeIfAbsent(op, k -> new TreeSet<>()).add(res.statusCode());
        } finally {
            res.body().close();
        }
    }

    private void deadLetters() {
        String q = "oa-dead";
        String one = JobsInState.deadLetter(q, "oa.dead", "OaError", "gone");
        String two = JobsInState.deadLetter(q, "oa.dead", "OaError", "gone");
        String three = JobsInState.deadLetter(q, "oa.dead", "OaError", "gone");
        String alive = Api.enqueue("oa.alive", q);
        String base = "/ojs/v1/dead-letter";
        expect(200, good("GET /ojs/v1/dead-letter", base + "?queue=" + q + "&limit=1", null));
        expect(400, bad("GET /ojs/v1/dead-letter", base + "?since=yesterday", null));
        expect(200, good("GET /ojs/v1/dead-letter/stats", base + "/stats", null));
        expect(200, good("GET /ojs/v1/dead-letter/{id}", base + "/" + one, null));
        expect(404, bad("GET /ojs/v1/dead-letter/{id}", base + "/" + newUuidV7(), null));
        expect(200, good("POST /ojs/v1/dead-letter/{id}/retry", base + "/" + one + "/retry", null));
        expect(409, bad("POST /ojs/v1/dead-letter/{id}/retry", base + "/" + alive + "/retry", null));
        expect(404, bad("POST /ojs/v1/dead-letter/{id}/retry", base + "/" + newUuidV7() + "/retry", null));
        expect(200, good("DELETE /ojs/v1/dead-letter/{id}", base + "/" + two, null));
        expect(409, bad("DELETE /ojs/v1/dead-letter/{id}", base + "/" + alive, null));
        expect(404, bad("DELETE /ojs/v1/dead-letter/{id}", base + "/" + newUuidV7(), null));
        Map<String, Object> filter = obj("filter", obj("queue", "oa-none"), "confirm", true);
        expect(200, good("POST /ojs/v1/dead-letter/retry", base + "/retry", filter));
        expect(400, bad("POST /ojs/v1/dead-letter/retry", base + "/retry", obj("filter", obj("queue", q))));
        expect(200, good("POST /ojs/v1/dead-letter/delete", base + "/delete", filter));
        expect(400, bad("POST /ojs/v1/dead-letter/delete", base + "/delete", obj()));
        expect(200, good("DELETE /ojs/v1/dead-letter", base + "?queue=oa-none&confirm=true", null));
        expect(400, bad("DELETE /ojs/v1/dead-letter", base + "?queue=oa-none", null));

        String admin = "/ojs/v1/admin/dead-letter";
        expect(200, good("GET /ojs/v1/admin/dead-letter", admin + "?queue=" + q + "&page=1&per_page=5", null));
        expect(400, bad("GET /ojs/v1/admin/dead-letter", admin + "?per_page=500", null));
        expect(200, good("GET /ojs/v1/admin/dead-letter/stats", admin + "/stats", null));
        String four = JobsInState.deadLetter("oa-dead2", "oa.dead", "OaError", "gone");
        expect(200, good("POST /ojs/v1/admin/dead-letter/{id}/retry", admin + "/" + four + "/retry", null));
        expect(409, bad("POST /ojs/v1/admin/dead-letter/{id}/retry", admin + "/" + alive + "/retry", null));
        expect(404, bad("POST /ojs/v1/admin/dead-letter/{id}/retry", admin + "/" + newUuidV7() + "/retry", null));
        expect(204, good("DELETE /ojs/v1/admin/dead-letter/{id}", admin + "/" + three, null));
        expect(409, bad("DELETE /ojs/v1/admin/dead-letter/{id}", admin + "/" + alive, null));
        expect(404, bad("DELETE /ojs/v1/admin/dead-letter/{id}", admin + "/" + three, null));
        expect(200, good("POST /ojs/v1/admin/dead-letter/retry", admin + "/retry", filter));
        expect(400, bad("POST /ojs/v1/admin/dead-letter/retry", admin + "/retry", obj("confirm", false)));
    }

    private void errorGroups() {
        JobsInState.deadLetter("oa-groups", "oa.group", "OaGroupError", "row 17 is locked");
        JobsInState.retryable("oa-groups", "oa.group", "OaGroupError", "row 18 is locked");
        String base = "/ojs/v1/admin/error-groups";
        expect(200, good("GET /ojs/v1/admin/error-groups", base + "?limit=1", null));
        expect(400, bad("GET /ojs/v1/admin/error-groups", base + "?limit=0", null));
        String id = path(request().get(base).then().statusCode(200).extract(), "groups[0].id");
        expect(200, good("GET /ojs/v1/admin/error-groups/{id}", base + "/" + id + "?limit=1", null));
        expect(400, bad("GET /ojs/v1/admin/error-groups/{id}", base + "/" + id + "?limit=1000", null));
        expect(404, bad("GET /ojs/v1/admin/error-groups/{id}", base + "/0000000000000000", null));
    }

    private void audit() {
        String base = "/ojs/v1/admin/audit";
        request().post("/ojs/v1/queues/oa-audit/pause").then().statusCode(200); // an audited change
        expect(200, good("GET /ojs/v1/admin/audit", base + "?limit=1&action=queues.pause", null));
        expect(400, bad("GET /ojs/v1/admin/audit", base + "?limit=0", null));
        expect(400, bad("GET /ojs/v1/admin/audit", base + "?since=yesterday", null));
    }

    private void tenants() {
        String t = "/ojs/v1/admin/tenants/oa-tenant";
        request().header("X-OJS-Tenant", "oa-tenant").contentType("application/json")
                .body("{\"type\":\"oa.t\",\"args\":[],\"options\":{\"queue\":\"oa-tenants\"}}")
                .post("/ojs/v1/jobs").then().statusCode(201);
        expect(200, good("GET /ojs/v1/admin/tenants", "/ojs/v1/admin/tenants", null));
        expect(200, good("PUT /ojs/v1/admin/tenants/{id}", t,
                Map.of("fairness_weight", 3, "limits", Map.of("max_queue_depth", 50_000, "max_concurrency", 20))));
        expect(200, good("PUT /ojs/v1/admin/tenants/{id}/limits", t + "/limits",
                Map.of("max_queue_depth", 100, "max_concurrency", 5)));
        expect(200, good("GET /ojs/v1/admin/tenants/{id}", t, null));
        expect(200, good("GET /ojs/v1/admin/tenants/{id}/stats", t + "/stats", null));
        expect(204, good("DELETE /ojs/v1/admin/tenants/{id}", t, null));
        String pool = "/ojs/v1/admin/pools/oa-pool";
        expect(200, good("PUT /ojs/v1/admin/pools/{name}", pool,
                Map.of("strategy", "weighted", "queues", Map.of("oa-tenants", Map.of("weight", 3)))));
        expect(200, good("GET /ojs/v1/admin/pools", "/ojs/v1/admin/pools", null));
        expect(200, good("GET /ojs/v1/admin/pools/{name}", pool, null));
        expect(204, good("DELETE /ojs/v1/admin/pools/{name}", pool, null));
        expect(404, bad("GET /ojs/v1/admin/pools/{name}", pool, null));
        expect(404, bad("DELETE /ojs/v1/admin/pools/{name}", pool, null));
        expect(200, good("GET /ojs/v1/admin/scheduling/stats", "/ojs/v1/admin/scheduling/stats", null));
        expect(200, good("GET /ojs/v1/queues/{name}", "/ojs/v1/queues/oa-tenants", null));
        expect(404, bad("GET /ojs/v1/queues/{name}", "/ojs/v1/queues/oa-none", null));
    }

    private void webhooks() {
        String subs = "/ojs/v1/webhooks/subscriptions";
        // port 9 on the loopback (allowed in tests) refuses connections: the test route answers 200, success false
        Response created = expect(201, good("POST " + subs, subs, Map.of("url", "http://127.0.0.1:9/oa",
                "events", List.of("job.completed", "job.*"), "filter", Map.of("queues", List.of("oa-hooks")),
                "metadata", Map.of("team", "oa"), "timeout_ms", 1000, "secret", "whk_openapi_secret_01")));
        String id = path(created, "subscription.id");
        String one = subs + "/" + id;
        String unknown = subs + "/sub_019539a4-b68c-7def-8000-aabbccddeeff";
        expect(200, good("GET " + subs, subs + "?limit=1", null));
        expect(200, good("GET " + subs + "/{id}", one, null));
        expect(404, bad("GET " + subs + "/{id}", unknown, null));
        expect(200, good("PATCH " + subs + "/{id}", one, Map.of("events", List.of("*"), "active", false)));
        expect(404, bad("PATCH " + subs + "/{id}", unknown, Map.of("active", true)));
        expect(200, good("POST " + subs + "/{id}/test", one + "/test", null));
        expect(404, bad("POST " + subs + "/{id}/test", unknown + "/test", null));
        expect(200, good("POST " + subs + "/{id}/rotate-secret", one + "/rotate-secret", null));
        expect(404, bad("POST " + subs + "/{id}/rotate-secret", unknown + "/rotate-secret", null));
        String deliveries = "/ojs/v1/webhooks/deliveries";
        java.time.Instant now = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        String del = "del_019539a4-b68c-7def-8000-" + Long.toHexString(System.nanoTime() & 0xffffffffffffL);
        del = del.substring(0, 28) + "0".repeat(40 - del.length()) + del.substring(28);
        webhookStore.insertDeliveries(List.of(new dev.steadfast.store.webhooks.NewDelivery(del, id, "evt_oa",
                "job.completed", null, "{\"type\":\"job.completed\"}")), now).await().indefinitely();
        expect(200, good("GET " + deliveries, deliveries + "?subscription_id=" + id + "&state=pending", null));
        expect(404, bad("GET " + deliveries, deliveries + "?subscription_id=sub_nope", null));
        expect(200, good("GET " + deliveries + "/{id}", deliveries + "/" + del, null));
        expect(404, bad("GET " + deliveries + "/{id}", deliveries + "/del_nope", null));
        expect(200, good("POST " + deliveries + "/{id}/retry", deliveries + "/" + del + "/retry", null));
        expect(404, bad("POST " + deliveries + "/{id}/retry", deliveries + "/del_nope/retry", null));
        // an attempt under way (its lease held by an instance): retry now waits for its outcome; the dispatcher is
        // paused so that the lease taken here is the only one
        scheduler.pause("webhook-dispatcher");
        try {
            expect(200, good("PATCH " + subs + "/{id}", one, Map.of("active", true)));
            assertEquals(1, webhookStore.claim(now.plusSeconds(1), 100, 30_000, "oa-instance").await().indefinitely()
                    .size());
            expect(409, bad("POST " + deliveries + "/{id}/retry", deliveries + "/" + del + "/retry", null));
        } finally {
            scheduler.resume("webhook-dispatcher");
        }
        expect(200, good("DELETE " + subs + "/{id}", one, null));
        expect(404, bad("DELETE " + subs + "/{id}", one, null));
    }

    /**
     * Every /ojs operation refuses an OJS-Version it does not speak with 422 and a body that is not JSON with 400,
     * as the document says.
     */
    private void refusalsEverywhere() {
        for (String op : contract.operations()) {
            String[] mp = op.split(" ", 2);
            if (!mp[1].startsWith("/ojs")) {
                continue;
            }
            String path = mp[1].replaceAll("\\{[^}]+}", "oa-x");
            Response r = request().header("OJS-Version", "9.9").request(mp[0], path);
            expect(422, contract.check(op, r));
            // a body in another format is refused before any resource runs, on every method
            expect(400, contract.check(op, request().contentType("text/plain").body("x").request(mp[0], path)));
        }
    }

    // ---- calls

    /** A request the test means as valid: its body must match the operation's request schema. */
    private Response good(String op, String path, Object body) {
        if (body != null) {
            contract.checkRequest(op, body);
        }
        return call(op, path, body);
    }

    private Response bad(String op, String path, Object body) {
        return call(op, path, body);
    }

    private Response call(String op, String path, Object body) {
        String method = op.substring(0, op.indexOf(' '));
        RequestSpecification spec = body == null ? request() : Api.send(body);
        return contract.check(op, spec.urlEncodingEnabled(false).request(method, path));
    }

    private Response send(String method, String path, String body, String contentType, String op) {
        return contract.check(op, request().contentType(contentType).body(body).request(method, path));
    }

    private static Response expect(int status, Response r) {
        assertEquals(status, r.statusCode(), () -> "answered " + r.asString());
        return r;
    }

    // ---- routes

    /** "METHOD /path" with every {param} written as {} and no trailing slash. */
    private static String normalize(String op) {
        String[] mp = op.split(" ", 2);
        String p = mp[1].replaceAll("\\{[^}]+}", "{}").replaceAll("/+", "/");
        if (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return mp[0].toUpperCase(Locale.ROOT) + " " + p;
    }

    /** The JAX-RS routes of every resource class in {@code pkg}, as normalized "METHOD /path". */
    /** The routes of the resources in the console's packages ({@code console}) or in every other package. */
    static Set<String> routes(boolean console) throws Exception {
        // the compiled classes, where Maven puts them (the test runs in the project's directory)
        Path root = Path.of("target", "classes");
        Path base = root.resolve("dev/steadfast");
        assertTrue(Files.isDirectory(base), base.toAbsolutePath().toString());
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.walk(base)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String rel = root.relativize(f).toString().replace(java.io.File.separatorChar, '.');
                String name = rel.substring(0, rel.length() - 6);
                if (name.startsWith("dev.steadfast.console.") != console) {
                    continue;
                }
                Class<?> c = Class.forName(name, false, OpenApiContractTest.class.getClassLoader());
                jakarta.ws.rs.Path rootPath = c.getAnnotation(jakarta.ws.rs.Path.class);
                if (rootPath == null) {
                    continue;
                }
                for (Method m : c.getDeclaredMethods()) {
                    String verb = verb(m);
                    if (verb != null) {
                        jakarta.ws.rs.Path sub = m.getAnnotation(jakarta.ws.rs.Path.class);
                        String path = "/" + rootPath.value() + "/" + (sub == null ? "" : sub.value());
                        out.add(normalize(verb + " " + path));
                    }
                }
            }
        }
        assertFalse(out.isEmpty(), "no resource " + (console ? "in" : "outside") + " the console");
        return out;
    }

    private static String verb(Method m) {
        for (java.lang.annotation.Annotation a : m.getAnnotations()) {
            jakarta.ws.rs.HttpMethod h = a.annotationType().getAnnotation(jakarta.ws.rs.HttpMethod.class);
            if (h != null) {
                return h.value();
            }
        }
        return null;
    }
}
