package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.JobState;
import dev.steadfast.events.EventLog;
import dev.steadfast.events.JobEvent;
import dev.steadfast.http.Body;
import dev.steadfast.jobs.JobService;
import dev.steadfast.model.JobRow;
import dev.steadfast.work.Draining;
import dev.steadfast.work.FetchConfig;
import dev.steadfast.work.WorkerResource;
import dev.steadfast.work.WorkerService;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.MultiEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.StreamJobsRequest;

/**
 * StreamJobs (ojs-grpc-binding.md 10.1): jobs handed to one worker over one stream, at most {@code max_concurrent}
 * of them unanswered at a time (1 when 0; at most steadfast.fetch.max-count). Each claim is a FETCH of the free
 * slots, through the HTTP FETCH's reader ({@code WorkerResource.claim}), long-polling up to {@value #WAIT_MS} ms, so
 * leases, heartbeats, paused queues (nothing delivered, the stream stays open), tenants of none and draining are
 * FETCH's. A slot is freed when its job leaves the stream's lease by any way in, either protocol: completed,
 * failed, retried, discarded, cancelled, snoozed or expired, seen as the job's lifecycle event (events.EventLog,
 * every instance's); a stream that is full and hears nothing for {@value #RECHECK_MS} ms reads its jobs' states
 * instead, so a lost event cannot stall it. A stream the client cuts leaves the jobs it delivered to their leases;
 * jobs a claim brings back after the cut are handed back at once (a snooze of 0, which counts no attempt). While the
 * server drains, and at shutdown, streams end (OK): a worker reconnects to another instance, and answers the jobs
 * it holds with Ack and Nack.
 */
@ApplicationScoped
class GrpcJobStreams {

    static final long WAIT_MS = 5_000;
    static final long RECHECK_MS = 5_000;
    /** The events after which a job no longer holds the lease its stream gave it. */
    static final Set<String> RELEASING = Set.of("job.completed", "job.failed", "job.retrying", "job.discarded",
            "job.cancelled", "job.snoozed", "job.lease_expired");

    private final WorkerResource workers;
    private final WorkerService service;
    private final JobService jobs;
    private final EventLog events;
    private final Draining draining;
    private final Messages messages;
    private final ObjectMapper json;
    private final int maxCount;
    private final Set<MultiEmitter<? super Job>> open = ConcurrentHashMap.newKeySet();

    GrpcJobStreams(WorkerResource workers, WorkerService service, JobService jobs, EventLog events, Draining draining,
                   ObjectMapper json, FetchConfig fetch) {
        this.workers = workers;
        this.service = service;
        this.jobs = jobs;
        this.events = events;
        this.draining = draining;
        this.json = json;
        this.messages = new Messages(json);
        this.maxCount = fetch.maxCount();
    }

    /** The stream {@code r} asks for, for a worker naming {@code tenant} (x-ojs-tenant, unchecked; null: none). */
    Multi<Job> stream(StreamJobsRequest r, String requestId, String tenant) {
        int max = r.getMaxConcurrent() <= 0 ? 1 : Math.min(r.getMaxConcurrent(), maxCount);
        // the call's own Vert.x context: the loop always resumes there, never on the thread of another request
        // whose event freed a slot, nor on a timer's thread
        Context context = Vertx.currentContext();
        return Multi.createFrom().<Job>emitter(em -> new Delivery(r, max, em, requestId, tenant, context).start());
    }

    void shutdown(@Observes ShutdownEvent e) {
        open.forEach(MultiEmitter::complete);
    }

    /** One stream: its unanswered jobs and the loop that claims for the free slots. */
    private final class Delivery {

        private final StreamJobsRequest request;
        private final int max;
        private final MultiEmitter<? super Job> em;
        private final String requestId;
        private final String tenant;
        private final Context context;
        private final Set<String> held = ConcurrentHashMap.newKeySet();
        private final Consumer<JobEvent> sink;
        private volatile Runnable wake;
        private volatile boolean recheckDue;

        Delivery(StreamJobsRequest request, int max, MultiEmitter<? super Job> em, String requestId, String tenant,
                 Context context) {
            this.request = request;
            this.max = max;
            this.em = em;
            this.requestId = requestId;
            this.tenant = tenant;
            this.context = context;
            this.sink = e -> {
                if (e.subject() != null && RELEASING.contains(e.type()) && held.remove(e.subject())) {
                    Runnable w = wake;
                    if (w != null) {
                        w.run();
                    }
                }
            };
        }

        void start() {
            open.add(em);
            events.subscribe(sink);
            em.onTermination(() -> {
                events.unsubscribe(sink);
                open.remove(em);
                Runnable w = wake;
                if (w != null) {
                    w.run(); // ends a wait for a slot at once
                }
            });
            next();
        }

        /** One turn: claim for the free slots, or read the held jobs' states, or wait for a slot. */
        private void next() {
            if (em.isCancelled()) {
                return;
            }
            if (draining.serverDraining()) {
                em.complete();
                return;
            }
            int free = max - held.size();
            if (free > 0) {
                run(claim(free));
            } else if (recheckDue) {
                recheckDue = false;
                run(recheck());
            } else {
                waitForSlot();
            }
        }

        private void run(Uni<Void> step) {
            step.subscribe().with(v -> resume(), f -> em.fail(GrpcErrors.of(f, requestId, json)));
        }

        private void resume() {
            if (context != null) {
                context.runOnContext(v -> next());
            } else {
                next();
            }
        }

        private Uni<Void> claim(int free) {
            ObjectNode b = messages.object();
            ArrayNode queues = b.putArray("queues");
            request.getQueuesList().forEach(queues::add);
            b.put("count", free).put("wait_ms", WAIT_MS);
            if (!request.getWorkerId().isEmpty()) {
                b.put("worker_id", request.getWorkerId());
            }
            return Uni.createFrom().deferred(() -> workers.claim(Body.of(b), tenant)).flatMap(rows -> {
                if (em.isCancelled()) {
                    return handBack(rows); // cut while the claim waited: nobody would get these
                }
                rows.forEach(row -> {
                    held.add(row.id().toString());
                    em.emit(messages.claimed(row));
                });
                return Uni.createFrom().voidItem();
            });
        }

        /** Jobs claimed for a stream that is gone, handed back at once (a snooze of 0: no attempt counted). */
        private Uni<Void> handBack(List<JobRow> rows) {
            List<Uni<Void>> back = rows.stream().map(row -> service.snooze(row.id(), row.leaseOwner(), Duration.ZERO,
                    null).replaceWithVoid().onFailure().recoverWithNull()).toList();
            return back.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(back).andCollectFailures()
                    .replaceWithVoid();
        }

        /** Waits for an event that frees a slot, at most RECHECK_MS (then the next turn reads the states). */
        private void waitForSlot() {
            Uni.createFrom().<Boolean>emitter(u -> {
                wake = () -> u.complete(true);
                if (held.size() < max || em.isCancelled()) {
                    u.complete(true); // freed (or cut) between the turn's check and now
                }
            }).ifNoItem().after(Duration.ofMillis(RECHECK_MS)).recoverWithItem(false).subscribe().with(freed -> {
                wake = null;
                recheckDue = !freed;
                resume();
            });
        }

        /** Frees the slots of held jobs that are no longer active under this stream's lease. */
        private Uni<Void> recheck() {
            List<Uni<Void>> reads = held.stream().map(id -> jobs.info(UUID.fromString(id)).invoke(row -> {
                boolean ours = row.state() == JobState.ACTIVE && (request.getWorkerId().isEmpty()
                        || request.getWorkerId().equals(row.leaseOwner()));
                if (!ours) {
                    held.remove(id);
                }
            }).onFailure().invoke(f -> held.remove(id)).onFailure().recoverWithNull().replaceWithVoid()).toList();
            return reads.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(reads).andCollectFailures()
                    .replaceWithVoid();
        }
    }
}
