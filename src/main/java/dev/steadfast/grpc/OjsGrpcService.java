package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.TenantId;
import dev.steadfast.domain.TraceContext;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.jobs.JobService;
import dev.steadfast.jobs.PushOutcome;
import dev.steadfast.jobs.Pushes;
import dev.steadfast.model.JobRow;
import dev.steadfast.operations.Manifest;
import dev.steadfast.operations.SystemService;
import dev.steadfast.work.Draining;
import dev.steadfast.work.WorkerResource;
import io.grpc.BindableService;
import io.grpc.ServerServiceDefinition;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Supplier;
import org.openjobspec.ojs.v1.AckRequest;
import org.openjobspec.ojs.v1.AckResponse;
import org.openjobspec.ojs.v1.BatchJobEntry;
import org.openjobspec.ojs.v1.CancelJobRequest;
import org.openjobspec.ojs.v1.CancelJobResponse;
import org.openjobspec.ojs.v1.CancelWorkflowRequest;
import org.openjobspec.ojs.v1.CancelWorkflowResponse;
import org.openjobspec.ojs.v1.CreateWorkflowRequest;
import org.openjobspec.ojs.v1.CreateWorkflowResponse;
import org.openjobspec.ojs.v1.DeleteDeadLetterRequest;
import org.openjobspec.ojs.v1.DeleteDeadLetterResponse;
import org.openjobspec.ojs.v1.EnqueueBatchRequest;
import org.openjobspec.ojs.v1.EnqueueBatchResponse;
import org.openjobspec.ojs.v1.EnqueueOptions;
import org.openjobspec.ojs.v1.EnqueueRequest;
import org.openjobspec.ojs.v1.EnqueueResponse;
import org.openjobspec.ojs.v1.Event;
import org.openjobspec.ojs.v1.FetchRequest;
import org.openjobspec.ojs.v1.FetchResponse;
import org.openjobspec.ojs.v1.GetJobRequest;
import org.openjobspec.ojs.v1.GetJobResponse;
import org.openjobspec.ojs.v1.GetWorkflowRequest;
import org.openjobspec.ojs.v1.GetWorkflowResponse;
import org.openjobspec.ojs.v1.HealthRequest;
import org.openjobspec.ojs.v1.HealthResponse;
import org.openjobspec.ojs.v1.HealthStatus;
import org.openjobspec.ojs.v1.HeartbeatRequest;
import org.openjobspec.ojs.v1.HeartbeatResponse;
import org.openjobspec.ojs.v1.Implementation;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.ListCronRequest;
import org.openjobspec.ojs.v1.ListCronResponse;
import org.openjobspec.ojs.v1.ListDeadLetterRequest;
import org.openjobspec.ojs.v1.ListDeadLetterResponse;
import org.openjobspec.ojs.v1.ListQueuesRequest;
import org.openjobspec.ojs.v1.ListQueuesResponse;
import org.openjobspec.ojs.v1.ManifestRequest;
import org.openjobspec.ojs.v1.ManifestResponse;
import org.openjobspec.ojs.v1.NackRequest;
import org.openjobspec.ojs.v1.NackResponse;
import org.openjobspec.ojs.v1.OJSServiceGrpc;
import org.openjobspec.ojs.v1.PauseQueueRequest;
import org.openjobspec.ojs.v1.PauseQueueResponse;
import org.openjobspec.ojs.v1.QueueStatsRequest;
import org.openjobspec.ojs.v1.QueueStatsResponse;
import org.openjobspec.ojs.v1.RegisterCronRequest;
import org.openjobspec.ojs.v1.RegisterCronResponse;
import org.openjobspec.ojs.v1.ResumeQueueRequest;
import org.openjobspec.ojs.v1.ResumeQueueResponse;
import org.openjobspec.ojs.v1.RetryDeadLetterRequest;
import org.openjobspec.ojs.v1.RetryDeadLetterResponse;
import org.openjobspec.ojs.v1.StreamEventsRequest;
import org.openjobspec.ojs.v1.StreamJobsRequest;
import org.openjobspec.ojs.v1.UnregisterCronRequest;
import org.openjobspec.ojs.v1.UnregisterCronResponse;
import org.openjobspec.ojs.v1.WorkerState;

/**
 * The OJS gRPC binding's service (ojs-grpc-binding.md 4, 5): each RPC turns its message into the HTTP binding's
 * request ({@link Messages}), hands it to the reader and service the HTTP resource uses, and turns the answer back;
 * failures become statuses in {@link GrpcErrors}. Access, request ids and trace context: {@link GrpcAccess}. Served
 * on the HTTP port (docs/reference/grpc.md). The operator RPCs (queues, dead letters, cron) are in
 * {@link GrpcOperations}, the workflow RPCs in {@link GrpcWorkflows}, StreamEvents in {@link GrpcEvents} and
 * StreamJobs in {@link GrpcJobStreams}.
 */
@ApplicationScoped
class OjsGrpcService implements BindableService {

    private final Manifest manifest;
    private final SystemService system;
    private final Draining draining;
    private final Pushes pushes;
    private final JobService jobs;
    private final WorkerResource workers;
    private final ObjectMapper json;
    private final Messages messages;
    private final Clock clock;
    private final GrpcOperations operations;
    private final GrpcWorkflows workflows;
    private final GrpcEvents events;
    private final GrpcJobStreams streams;

    public OjsGrpcService(Manifest manifest, SystemService system, Draining draining, Pushes pushes, JobService jobs,
                          WorkerResource workers, ObjectMapper json, Clock clock, GrpcOperations operations,
                          GrpcWorkflows workflows, GrpcEvents events, GrpcJobStreams streams) {
        this.streams = streams;
        this.operations = operations;
        this.workflows = workflows;
        this.events = events;
        this.manifest = manifest;
        this.system = system;
        this.draining = draining;
        this.pushes = pushes;
        this.jobs = jobs;
        this.workers = workers;
        this.json = json;
        this.clock = clock;
        this.messages = new Messages(json);
    }

    /** Every RPC of {@code ojs.v1.OJSService}, each answered by the method of the same name below. */
    @Override
    public ServerServiceDefinition bindService() {
        return ServerServiceDefinition.builder(OJSServiceGrpc.getServiceDescriptor())
                .addMethod(OJSServiceGrpc.getManifestMethod(), MutinyCalls.unary(this::manifest))
                .addMethod(OJSServiceGrpc.getHealthMethod(), MutinyCalls.unary(this::health))
                .addMethod(OJSServiceGrpc.getEnqueueMethod(), MutinyCalls.unary(this::enqueue))
                .addMethod(OJSServiceGrpc.getEnqueueBatchMethod(), MutinyCalls.unary(this::enqueueBatch))
                .addMethod(OJSServiceGrpc.getGetJobMethod(), MutinyCalls.unary(this::getJob))
                .addMethod(OJSServiceGrpc.getCancelJobMethod(), MutinyCalls.unary(this::cancelJob))
                .addMethod(OJSServiceGrpc.getFetchMethod(), MutinyCalls.unary(this::fetch))
                .addMethod(OJSServiceGrpc.getAckMethod(), MutinyCalls.unary(this::ack))
                .addMethod(OJSServiceGrpc.getNackMethod(), MutinyCalls.unary(this::nack))
                .addMethod(OJSServiceGrpc.getHeartbeatMethod(), MutinyCalls.unary(this::heartbeat))
                .addMethod(OJSServiceGrpc.getListQueuesMethod(), MutinyCalls.unary(this::listQueues))
                .addMethod(OJSServiceGrpc.getQueueStatsMethod(), MutinyCalls.unary(this::queueStats))
                .addMethod(OJSServiceGrpc.getPauseQueueMethod(), MutinyCalls.unary(this::pauseQueue))
                .addMethod(OJSServiceGrpc.getResumeQueueMethod(), MutinyCalls.unary(this::resumeQueue))
                .addMethod(OJSServiceGrpc.getListDeadLetterMethod(), MutinyCalls.unary(this::listDeadLetter))
                .addMethod(OJSServiceGrpc.getRetryDeadLetterMethod(), MutinyCalls.unary(this::retryDeadLetter))
                .addMethod(OJSServiceGrpc.getDeleteDeadLetterMethod(), MutinyCalls.unary(this::deleteDeadLetter))
                .addMethod(OJSServiceGrpc.getRegisterCronMethod(), MutinyCalls.unary(this::registerCron))
                .addMethod(OJSServiceGrpc.getUnregisterCronMethod(), MutinyCalls.unary(this::unregisterCron))
                .addMethod(OJSServiceGrpc.getListCronMethod(), MutinyCalls.unary(this::listCron))
                .addMethod(OJSServiceGrpc.getCreateWorkflowMethod(), MutinyCalls.unary(this::createWorkflow))
                .addMethod(OJSServiceGrpc.getGetWorkflowMethod(), MutinyCalls.unary(this::getWorkflow))
                .addMethod(OJSServiceGrpc.getCancelWorkflowMethod(), MutinyCalls.unary(this::cancelWorkflow))
                .addMethod(OJSServiceGrpc.getStreamJobsMethod(), MutinyCalls.serverStreaming(this::streamJobs))
                .addMethod(OJSServiceGrpc.getStreamEventsMethod(), MutinyCalls.serverStreaming(this::streamEvents))
                .build();
    }

    /** {@code work}, started on the calling context, with any failure (thrown or emitted) as a gRPC status. */
    private <T> Uni<T> call(Supplier<Uni<T>> work) {
        String id = GrpcAccess.REQUEST_ID.get();
        return Uni.createFrom().<T>deferred(work::get).onFailure().transform(f -> GrpcErrors.of(f, id, json));
    }

    public Uni<ManifestResponse> manifest(ManifestRequest request) {
        Manifest.Body m = manifest.body();
        return Uni.createFrom().item(ManifestResponse.newBuilder().setOjsVersion(m.ojsVersion())
                .setImplementation(Implementation.newBuilder().setName(m.implementation().name())
                        .setVersion(m.implementation().version()).setLanguage(m.implementation().language()))
                .setConformanceLevel(m.conformanceLevel()).addAllProtocols(m.protocols()).setBackend(m.backend())
                .addAllExtensions(m.extensions()).setSchemaValidation(m.schemaValidation()).build());
    }

    /** As GET /ojs/v1/health: degraded while this server drains or when the database does not answer. */
    public Uni<HealthResponse> health(HealthRequest request) {
        if (draining.serverDraining()) {
            return Uni.createFrom().item(health(HealthStatus.HEALTH_STATUS_DEGRADED, "ok", true));
        }
        return system.ping().map(ms -> health(HealthStatus.HEALTH_STATUS_OK, "ok", false))
                .onFailure().recoverWithItem(e -> health(HealthStatus.HEALTH_STATUS_DEGRADED, "unhealthy", false));
    }

    private HealthResponse health(HealthStatus status, String backend, boolean shuttingDown) {
        ObjectNode details = messages.object();
        details.put("backend", backend).put("uptime_seconds", system.uptimeSeconds());
        if (shuttingDown) {
            details.put("shutting_down", true);
        }
        return HealthResponse.newBuilder().setStatus(status).setTimestamp(ProtoJson.timestamp(clock.instant()))
                .setDetails(ProtoJson.struct(details)).build();
    }

    public Uni<EnqueueResponse> enqueue(EnqueueRequest r) {
        TraceContext trace = GrpcAccess.TRACE.get();
        return call(() -> pushes.push(Body.of(messages.push(r.getType(), r.getArgsList(),
                r.hasOptions() ? r.getOptions() : null)), trace, GrpcAccess.TENANT.get()).map(p -> {
                    JobRow row = p.outcome() instanceof PushOutcome.Deduplicated d ? d.existing()
                            : ((PushOutcome.Created) p.outcome()).job();
                    return EnqueueResponse.newBuilder().setJob(messages.job(row)).build();
                }));
    }

    public Uni<EnqueueBatchResponse> enqueueBatch(EnqueueBatchRequest r) {
        TraceContext trace = GrpcAccess.TRACE.get();
        String tenant = GrpcAccess.TENANT.get();
        return call(() -> {
            ArrayNode list = json.createArrayNode();
            for (BatchJobEntry e : r.getJobsList()) {
                list.add(messages.push(e.getType(), e.getArgsList(), options(r, e)));
            }
            return pushes.pushAll(list, trace, tenant, all -> {
                EnqueueBatchResponse.Builder b = EnqueueBatchResponse.newBuilder().setCount(all.jobs().size());
                all.jobs().forEach(row -> b.addJobs(messages.job(row)));
                return b.build();
            });
        });
    }

    /** A batch entry's options over the batch's defaults: what the entry sets wins, field by field. */
    private static EnqueueOptions options(EnqueueBatchRequest r, BatchJobEntry e) {
        if (!r.hasDefaultOptions()) {
            return e.hasOptions() ? e.getOptions() : null;
        }
        if (!e.hasOptions()) {
            return r.getDefaultOptions();
        }
        EnqueueOptions.Builder merged = r.getDefaultOptions().toBuilder().mergeFrom(e.getOptions());
        if (e.getOptions().getTagsCount() > 0) {
            merged.clearTags().addAllTags(e.getOptions().getTagsList()); // the entry's tags replace the defaults'
        }
        return merged.build();
    }

    public Uni<GetJobResponse> getJob(GetJobRequest r) {
        String tenant = GrpcAccess.TENANT.get();
        return call(() -> jobs.infoFor(jobId(r.getJobId()), TenantId.header(tenant))
                .map(row -> GetJobResponse.newBuilder().setJob(messages.job(row)).build()));
    }

    public Uni<CancelJobResponse> cancelJob(CancelJobRequest r) {
        String tenant = GrpcAccess.TENANT.get();
        return call(() -> jobs.cancelFor(jobId(r.getJobId()), TenantId.header(tenant))
                .map(c -> CancelJobResponse.newBuilder().setJob(messages.job(c.job())).build()));
    }

    /** A job id field: required; anything that is not a UUID cannot name a job (404, as over HTTP). */
    private static UUID jobId(String id) {
        if (id.isEmpty()) {
            throw OjsException.invalidField("job_id", "The 'job_id' field is required.", "uuid", "missing");
        }
        return Params.jobId(id);
    }

    public Uni<FetchResponse> fetch(FetchRequest r) {
        String tenant = GrpcAccess.TENANT.get();
        return call(() -> {
            ObjectNode b = messages.object();
            ArrayNode queues = b.putArray("queues");
            r.getQueuesList().forEach(queues::add);
            if (r.getCount() != 0) {
                b.put("count", r.getCount());
            }
            if (!r.getWorkerId().isEmpty()) {
                b.put("worker_id", r.getWorkerId());
            }
            return workers.claim(Body.of(b), tenant).map(rows -> {
                FetchResponse.Builder f = FetchResponse.newBuilder();
                rows.forEach(row -> f.addJobs(messages.claimed(row)));
                return f.build();
            });
        });
    }

    public Uni<AckResponse> ack(AckRequest r) {
        return call(() -> {
            ObjectNode b = messages.object();
            b.put("job_id", r.getJobId());
            if (r.hasResult()) {
                b.set("result", ProtoJson.node(r.getResult()));
            }
            Body body = Body.of(b);
            return workers.ack(WorkerResource.jobIdField(body), body)
                    .map(at -> AckResponse.newBuilder().setAcknowledged(true).build());
        });
    }

    public Uni<NackResponse> nack(NackRequest r) {
        return call(() -> {
            ObjectNode b = messages.object();
            b.put("job_id", r.getJobId());
            if (r.hasError()) {
                b.set("error", messages.error(r.getError()));
            }
            Body body = Body.of(b);
            return workers.nack(WorkerResource.jobIdField(body), body).map(row -> {
                NackResponse.Builder n = NackResponse.newBuilder().setState(Messages.state(row.state().wire()));
                if (row.state() == JobState.RETRYABLE && row.runAt() != null) {
                    n.setNextAttemptAt(ProtoJson.timestamp(row.runAt()));
                }
                return n.build();
            });
        });
    }

    /**
     * BEAT: {@code id} names the job when {@code worker_id} is given (a per-job heartbeat), else the worker (every
     * lease it holds is extended), as the binding's HeartbeatRequest says.
     */
    public Uni<HeartbeatResponse> heartbeat(HeartbeatRequest r) {
        return call(() -> {
            ObjectNode b = messages.object();
            boolean perJob = !r.getWorkerId().isEmpty();
            String worker = perJob ? r.getWorkerId() : r.getId();
            if (!worker.isEmpty()) {
                b.put("worker_id", worker);
            }
            if (perJob && !r.getId().isEmpty()) {
                b.putArray("active_jobs").add(r.getId());
            }
            if (r.hasExtendBy()) {
                b.put("visibility_timeout_ms", ProtoJson.millis(r.getExtendBy()));
            }
            if (r.getCurrentStateValue() != 0) {
                b.put("state", r.getCurrentState() == WorkerState.UNRECOGNIZED
                        ? Integer.toString(r.getCurrentStateValue())
                        : r.getCurrentState().name().substring("WORKER_STATE_".length()).toLowerCase(Locale.ROOT));
            }
            return workers.beat(Body.of(b)).map(beat -> HeartbeatResponse.newBuilder()
                    .setDirectedState(directed(beat.directive())).build());
        });
    }

    private static WorkerState directed(String directive) {
        return switch (directive) {
            case "quiet" -> WorkerState.WORKER_STATE_QUIET;
            case "terminate" -> WorkerState.WORKER_STATE_TERMINATE;
            default -> WorkerState.WORKER_STATE_RUNNING;
        };
    }

    public Uni<ListQueuesResponse> listQueues(ListQueuesRequest r) {
        return call(operations::listQueues);
    }

    public Uni<QueueStatsResponse> queueStats(QueueStatsRequest r) {
        return call(() -> operations.queueStats(r.getQueue()));
    }

    public Uni<PauseQueueResponse> pauseQueue(PauseQueueRequest r) {
        return call(() -> operations.pause(r.getQueue()).map(v -> PauseQueueResponse.getDefaultInstance()));
    }

    public Uni<ResumeQueueResponse> resumeQueue(ResumeQueueRequest r) {
        return call(() -> operations.resume(r.getQueue()).map(v -> ResumeQueueResponse.getDefaultInstance()));
    }

    public Uni<ListDeadLetterResponse> listDeadLetter(ListDeadLetterRequest r) {
        return call(() -> operations.listDeadLetter(r));
    }

    public Uni<RetryDeadLetterResponse> retryDeadLetter(RetryDeadLetterRequest r) {
        return call(() -> operations.retryDeadLetter(r.getJobId())
                .map(j -> RetryDeadLetterResponse.newBuilder().setJob(j).build()));
    }

    public Uni<DeleteDeadLetterResponse> deleteDeadLetter(DeleteDeadLetterRequest r) {
        return call(() -> operations.deleteDeadLetter(r.getJobId())
                .map(v -> DeleteDeadLetterResponse.getDefaultInstance()));
    }

    public Uni<RegisterCronResponse> registerCron(RegisterCronRequest r) {
        return call(() -> operations.registerCron(r));
    }

    public Uni<UnregisterCronResponse> unregisterCron(UnregisterCronRequest r) {
        return call(() -> operations.unregisterCron(r.getName()).map(v -> UnregisterCronResponse.getDefaultInstance()));
    }

    public Uni<ListCronResponse> listCron(ListCronRequest r) {
        return call(operations::listCron);
    }

    public Uni<CreateWorkflowResponse> createWorkflow(CreateWorkflowRequest r) {
        return call(() -> workflows.create(r).map(w -> CreateWorkflowResponse.newBuilder().setWorkflow(w).build()));
    }

    public Uni<GetWorkflowResponse> getWorkflow(GetWorkflowRequest r) {
        return call(() -> workflows.get(r.getWorkflowId())
                .map(w -> GetWorkflowResponse.newBuilder().setWorkflow(w).build()));
    }

    public Uni<CancelWorkflowResponse> cancelWorkflow(CancelWorkflowRequest r) {
        return call(() -> workflows.cancel(r.getWorkflowId())
                .map(w -> CancelWorkflowResponse.newBuilder().setWorkflow(w).build()));
    }

    public Multi<Event> streamEvents(StreamEventsRequest r) {
        return events.stream(r, GrpcAccess.REQUEST_ID.get());
    }

    public Multi<Job> streamJobs(StreamJobsRequest r) {
        return streams.stream(r, GrpcAccess.REQUEST_ID.get(), GrpcAccess.TENANT.get());
    }
}
