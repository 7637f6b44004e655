package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.cron.CronResource;
import dev.steadfast.cron.CronService;
import dev.steadfast.deadletters.DeadLetterService;
import dev.steadfast.deadletters.DeadLetterViews;
import dev.steadfast.domain.JobState;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.model.CronRow;
import dev.steadfast.queues.QueueService;
import dev.steadfast.stats.DepthCounts;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.UUID;
import org.openjobspec.ojs.v1.CronEntry;
import org.openjobspec.ojs.v1.EnqueueOptions;
import org.openjobspec.ojs.v1.Job;
import org.openjobspec.ojs.v1.ListCronResponse;
import org.openjobspec.ojs.v1.ListDeadLetterRequest;
import org.openjobspec.ojs.v1.ListDeadLetterResponse;
import org.openjobspec.ojs.v1.ListQueuesResponse;
import org.openjobspec.ojs.v1.QueueInfo;
import org.openjobspec.ojs.v1.QueueStatistics;
import org.openjobspec.ojs.v1.QueueStatsResponse;
import org.openjobspec.ojs.v1.RegisterCronRequest;
import org.openjobspec.ojs.v1.RegisterCronResponse;

/**
 * The binding's operator RPCs (ojs-grpc-binding.md 4.1: queues, dead letters, cron) for {@link OjsGrpcService}, on
 * the services the HTTP resources call, with the same readers for their input (queue names checked by
 * {@code QueueService}, the dead-letter filter by {@link DeadLetterViews}, a cron registration by
 * {@link CronResource#command}).
 */
@ApplicationScoped
class GrpcOperations {

    /** As GET /ojs/v1/cron: at most this many schedules in one answer. */
    static final int MAX_CRON = 1000;

    private final QueueService queues;
    private final DeadLetterService deadLetters;
    private final CronService crons;
    private final CronResource cronReader;
    private final ObjectMapper json;
    private final Messages messages;

    private final DepthCounts depths;

    GrpcOperations(QueueService queues, DeadLetterService deadLetters, CronService crons, CronResource cronReader,
                   ObjectMapper json, DepthCounts depths) {
        this.depths = depths;
        this.queues = queues;
        this.deadLetters = deadLetters;
        this.crons = crons;
        this.cronReader = cronReader;
        this.json = json;
        this.messages = new Messages(json);
    }

    /**
     * Every queue, as GET /ojs/v1/queues lists them (which has no pagination: {@code limit} and {@code cursor} are not
     * read), with {@code available_count} from the depth counts the console and the queue pages read
     * (stats.DepthCounts: at most {@code steadfast.console.counts-max-age} old, one count of the table for all
     * readers), not counted per call.
     */
    Uni<ListQueuesResponse> listQueues() {
        return Uni.combine().all().unis(queues.list(), depths.get()).asTuple().map(t -> {
            ListQueuesResponse.Builder b = ListQueuesResponse.newBuilder();
            Map<String, Map<JobState, Long>> byQueue = t.getItem2().byQueue();
            t.getItem1().forEach(q -> {
                QueueInfo.Builder i = QueueInfo.newBuilder().setName(q.name()).setPaused(q.paused())
                        .setAvailableCount(byQueue.getOrDefault(q.name(), Map.of()).getOrDefault(JobState.AVAILABLE, 0L));
                if (q.createdAt() != null) {
                    i.setCreatedAt(ProtoJson.timestamp(q.createdAt()));
                }
                b.addQueues(i);
            });
            return b.build();
        });
    }

    /** The queue's counts by state, counted now, as GET /ojs/v1/queues/{name}/stats counts them. */
    Uni<QueueStatsResponse> queueStats(String name) {
        return queues.depth(name).map(d -> {
            Map<JobState, Long> c = d.counts().byState();
            QueueStatistics s = QueueStatistics.newBuilder()
                    .setAvailable(c.getOrDefault(JobState.AVAILABLE, 0L))
                    .setActive(c.getOrDefault(JobState.ACTIVE, 0L))
                    .setScheduled(c.getOrDefault(JobState.SCHEDULED, 0L))
                    .setRetryable(c.getOrDefault(JobState.RETRYABLE, 0L))
                    .setDead(d.counts().deadLetters()).setPaused(d.queue().paused()).build();
            return QueueStatsResponse.newBuilder().setQueue(d.queue().name()).setStats(s).build();
        });
    }

    Uni<Void> pause(String name) {
        return queues.pause(name, "api").replaceWithVoid();
    }

    Uni<Void> resume(String name) {
        return queues.resume(name, "api").replaceWithVoid();
    }

    /** As GET /ojs/v1/dead-letter?queue=&limit=&cursor= (limit 1 to 200, 50 when left at 0). */
    Uni<ListDeadLetterResponse> listDeadLetter(ListDeadLetterRequest r) {
        int n = Params.integer("limit", r.getLimit() == 0 ? null : Integer.toString(r.getLimit()), 50, 1, 200);
        String cursor = r.getCursor().isEmpty() ? null : r.getCursor();
        return deadLetters.list(DeadLetterViews.filter(r.getQueue(), null, null, null, null), cursor, n, 0)
                .map(page -> {
                    ListDeadLetterResponse.Builder b = ListDeadLetterResponse.newBuilder()
                            .setTotalCount(page.total());
                    page.jobs().forEach(j -> b.addJobs(messages.job(j)));
                    if (page.nextCursor() != null) {
                        b.setNextCursor(page.nextCursor());
                    }
                    return b.build();
                });
    }

    Uni<Job> retryDeadLetter(String id) {
        return deadLetters.retry(jobId(id)).map(messages::job);
    }

    Uni<Void> deleteDeadLetter(String id) {
        return deadLetters.delete(jobId(id));
    }

    private static UUID jobId(String id) {
        if (id.isEmpty()) {
            throw OjsException.invalidField("job_id", "The 'job_id' field is required.", "uuid", "missing");
        }
        return Params.jobId(id);
    }

    /** As POST /ojs/v1/cron: {@code name}, {@code cron}, {@code timezone} and the job template (type, args, options). */
    Uni<RegisterCronResponse> registerCron(RegisterCronRequest r) {
        return Uni.createFrom().item(() -> {
            ObjectNode b = messages.push(r.getType(), r.getArgsList(), r.hasOptions() ? r.getOptions() : null);
            b.put("name", r.getName());
            b.put("cron", r.getCron());
            if (!r.getTimezone().isEmpty()) {
                b.put("timezone", r.getTimezone());
            }
            return cronReader.command(Body.of(b));
        }).flatMap(crons::register).map(c -> {
            RegisterCronResponse.Builder a = RegisterCronResponse.newBuilder().setName(c.name());
            if (c.nextFireAt() != null) {
                a.setNextRunAt(ProtoJson.timestamp(c.nextFireAt()));
            }
            return a.build();
        });
    }

    Uni<Void> unregisterCron(String name) {
        return crons.delete(name).replaceWithVoid();
    }

    Uni<ListCronResponse> listCron() {
        return crons.list(MAX_CRON, 0).map(p -> {
            ListCronResponse.Builder b = ListCronResponse.newBuilder();
            p.rows().forEach(c -> b.addEntries(entry(c)));
            return b.build();
        });
    }

    private CronEntry entry(CronRow c) {
        JsonNode t = ProtoJson.read(json, c.templateJson());
        CronEntry.Builder e = CronEntry.newBuilder().setName(c.name()).setCron(c.expression())
                .setType(t.path("type").asText());
        if (c.timezone() != null) {
            e.setTimezone(c.timezone());
        }
        if (t.path("args").isArray()) {
            t.get("args").forEach(a -> e.addArgs(ProtoJson.value(a)));
        }
        String queue = t.path("options").path("queue").asText(t.path("queue").asText(""));
        if (!queue.isEmpty()) {
            e.setOptions(EnqueueOptions.newBuilder().setQueue(queue));
        }
        if (c.nextFireAt() != null) {
            e.setNextRunAt(ProtoJson.timestamp(c.nextFireAt()));
        }
        if (c.lastFireAt() != null) {
            e.setLastRunAt(ProtoJson.timestamp(c.lastFireAt()));
        }
        return e.build();
    }
}
