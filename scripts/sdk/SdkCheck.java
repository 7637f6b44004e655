import org.openjobspec.ojs.*;
import java.time.Duration;
import java.util.*;

/**
 * The official OJS Java SDK against a running server (scripts/sdk-check.sh): workflows (chain, group, batch) as the
 * SDK sends them, enqueue, unique jobs (created, then the duplicate refused), a worker, and, against a server without
 * authentication, a DurableJobHandler resumed from its checkpoint (the SDK's checkpoint requests carry no token).
 * Usage: java -cp <SDK jar and its dependencies>:. SdkCheck <url> <token> [<url of a server without authentication>]
 */
public class SdkCheck {
    static int failed = 0, passed = 0;
    static void check(String name, boolean ok, Object extra) {
        if (ok) passed++; else failed++;
        System.out.println((ok ? "PASS " : "FAIL ") + name + " " + extra);
    }
    /** The first attempt saves a checkpoint and fails; the second resumes from it, then deletes it. */
    static class Resumable extends DurableJobHandler {
        final List<Integer> resumedFrom = Collections.synchronizedList(new ArrayList<>());

        @Override
        public Object handle(JobContext ctx) throws Exception {
            int from = resumeCheckpoint(ctx, Integer.class).orElse(0);
            resumedFrom.add(from);
            saveCheckpoint(ctx, 500);
            if (ctx.attempt() == 1) {
                throw new RuntimeException("crash after the checkpoint");
            }
            deleteCheckpoint(ctx);
            return Map.of("from", from);
        }
    }

    static void durable(String url) throws Exception {
        String q = "jdur" + System.currentTimeMillis();
        var client = OJSClient.builder().url(url).build();
        var worker = OJSWorker.builder().url(url).queues(List.of(q)).concurrency(1).pollInterval(Duration.ofMillis(100))
                .build();
        var handler = new Resumable();
        worker.register("j.durable", handler);
        Thread.ofVirtual().start(worker::start);
        var job = client.enqueue("j.durable", List.of()).queue(q).retry(RetryPolicy.builder().maxAttempts(2)
                .initialInterval(Duration.ofMillis(100)).jitter(false).build()).send();
        String state = null;
        for (int i = 0; i < 120; i++) {
            state = client.getJob(job.id()).state();
            if ("completed".equals(state) || "discarded".equals(state)) break;
            Thread.sleep(250);
        }
        check("durable job completed on its second attempt", "completed".equals(state), state);
        check("the second attempt resumed from the first one's checkpoint", List.of(0, 500).equals(handler.resumedFrom),
                handler.resumedFrom);
        var gone = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(url + "/ojs/v1/jobs/" + job.id() + "/checkpoint")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        check("no checkpoint once the job completed", gone.statusCode() == 404, gone.statusCode());
        worker.stop();
    }

    public static void main(String[] a) throws Exception {
        String url = a[0], token = a[1];
        String q = "jsdk" + System.currentTimeMillis();
        var client = OJSClient.builder().url(url).authToken(token).build();
        var worker = OJSWorker.builder().url(url).authToken(token).queues(List.of(q, "default")).concurrency(4)
                .pollInterval(Duration.ofMillis(100)).build();
        worker.register("j.step", ctx -> Map.of("ok", true));
        worker.register("j.fail", ctx -> { throw new RuntimeException("boom"); });
        worker.register("j.cb", ctx -> Map.of("cb", true));
        Thread t = Thread.ofVirtual().start(worker::start);
        Workflow.WorkflowStatus chain = null, group = null, batch = null;
        try {
            chain = client.createWorkflow(Workflow.chain("jc", Workflow.step("j.step", Map.of("i", 0), q),
                    Workflow.step("j.step", Map.of("i", 1), q), Workflow.step("j.step", Map.of("i", 2), q)));
            check("chain created", chain.id() != null, chain.state());
        } catch (Exception e) { check("chain created", false, e); }
        try {
            group = client.createWorkflow(Workflow.group("jg", Workflow.step("j.step", Map.of(), q),
                    Workflow.step("j.fail", Map.of(), q)));
            check("group created", group.id() != null, group.state());
        } catch (Exception e) { check("group created", false, e); }
        try {
            batch = client.createWorkflow(Workflow.batch("jb",
                    Workflow.callbacks().onComplete(Workflow.step("j.cb", Map.of(), q)),
                    Workflow.step("j.step", Map.of(), q), Workflow.step("j.step", Map.of(), q)));
            check("batch created", batch.id() != null, batch.state());
        } catch (Exception e) { check("batch created", false, e); }
        // unique jobs as the SDK sends them: {"key": ["order"], "period_ms": 60000, "on_conflict": "reject"}, on a
        // queue no worker takes, so the first job still holds the key when the duplicate arrives
        var policy = UniquePolicy.builder().key(List.of("order")).period(Duration.ofMinutes(1)).onConflict("reject")
                .build();
        long order = System.currentTimeMillis();
        try {
            var u1 = client.enqueue("j.unique", (Object) Map.of("order", order)).queue(q + "-u").unique(policy).send();
            check("unique job created", u1.id() != null, u1.id());
            try {
                var dup = client.enqueue("j.unique", (Object) Map.of("order", order)).queue(q + "-u").unique(policy).send();
                check("unique duplicate refused", false, "accepted as " + dup.id());
            } catch (OJSError.OJSException e) {
                check("unique duplicate refused with 409 duplicate", e.isDuplicate(), e.code() + " " + e.getMessage());
            }
        } catch (Exception e) { check("unique job created", false, e); }
        var job = client.enqueue("j.step", Map.of("x", 1));
        var single = client.enqueue("j.step", List.of(1)).queue(q).send();
        Map<String, String> want = new LinkedHashMap<>();
        if (chain != null) want.put(chain.id(), "completed");
        if (group != null) want.put(group.id(), "failed"); // j.fail fails for good after its retries
        if (batch != null) want.put(batch.id(), "completed");
        Map<String, String> got = new LinkedHashMap<>();
        for (int i = 0; i < 240; i++) {
            for (String id : want.keySet()) got.put(id, client.getWorkflow(id).state());
            if (got.equals(want)) break;
            Thread.sleep(250);
        }
        check("workflows finished as expected", got.equals(want), got);
        if (chain != null) {
            var s = client.getWorkflow(chain.id());
            check("chain steps echo their ids and depends_on", s.steps().size() == 3
                    && "step_1".equals(s.steps().get(1).id()) && List.of("step_0").equals(s.steps().get(1).dependsOn()), s.steps());
        }
        check("single job completed", "completed".equals(client.getJob(single.id()).state()), client.getJob(single.id()).state());
        check("default-queue job enqueued", job.id() != null, job.queue());
        worker.stop();
        if (a.length > 2) {
            durable(a[2]);
        }
        System.out.println("RESULT passed=" + passed + " failed=" + failed);
        System.exit(failed == 0 ? 0 : 1);
    }
}
