package dev.steadfast.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.TraceContext;
import dev.steadfast.http.Body;
import dev.steadfast.schemas.ArgsValidation;
import dev.steadfast.store.JobRow;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * PUSH and batch PUSH from a request body in the HTTP binding's shape, whichever binding received it: the one
 * reading of both, which {@link JobResource} and the gRPC binding (grpc.OjsGrpcService) share so that they cannot
 * drift. A PUSH is parsed ({@link EnqueueParser}), its args checked against their type's schema
 * ({@link ArgsValidation}) and enqueued ({@link JobService#enqueue}); a batch is all or nothing, 1 to
 * {@code steadfast.jobs.max-batch} jobs, a refusal naming the index of the job it refuses.
 */
@ApplicationScoped
public class Pushes {

    /** A PUSH's outcome and the schema check's warnings. */
    public record Pushed(PushOutcome outcome, List<String> warnings) {
    }

    /** A batch PUSH's jobs, in request order, and the warnings, each prefixed with its job's index. */
    public record PushedAll(List<JobRow> jobs, List<String> warnings) {
    }

    private final JobService jobs;
    private final JobsConfig config;
    private final ObjectMapper json;
    private final Clock clock;
    private final ArgsValidation argsValidation;

    public Pushes(JobService jobs, JobsConfig config, ObjectMapper json, Clock clock, ArgsValidation argsValidation) {
        this.jobs = jobs;
        this.config = config;
        this.json = json;
        this.clock = clock;
        this.argsValidation = argsValidation;
    }

    /** PUSH of one parsed job. */
    public Uni<Pushed> push(EnqueueCommand c) {
        return argsValidation.check(c).flatMap(warnings -> jobs.enqueue(c).map(o -> new Pushed(o, warnings)));
    }

    /** PUSH of the job {@code b} describes, with the request's trace context and tenant header (either may be null). */
    public Uni<Pushed> push(Body b, TraceContext trace, String tenant) {
        return Uni.createFrom().item(() -> EnqueueParser.parse(json, b, clock.instant(), trace, tenant))
                .flatMap(this::push);
    }

    /** Batch PUSH of the jobs in {@code list} (a JSON array, the body's {@code jobs}): all or nothing. */
    public Uni<PushedAll> pushAll(JsonNode list, TraceContext trace, String tenant) {
        return Uni.createFrom().item(() -> {
            int max = config.maxBatch();
            if (list.isEmpty() || list.size() > max) {
                throw OjsException.invalidField("jobs", "'jobs' must hold 1 to " + max + " jobs.",
                        "1 to " + max + " jobs", list.size() + " jobs");
            }
            Instant now = clock.instant();
            List<EnqueueCommand> commands = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                try {
                    commands.add(EnqueueParser.parse(json, Body.element(json, list.get(i), "jobs[" + i + "]"), now,
                            trace, tenant));
                } catch (OjsException e) {
                    throw e.atIndex(i);
                }
            }
            return commands;
        }).flatMap(commands -> argsValidation.checkEach(commands).flatMap(checked -> {
            List<String> warnings = new ArrayList<>();
            for (int i = 0; i < checked.size(); i++) {
                if (checked.get(i).refusal() != null) {
                    throw checked.get(i).refusal().atIndex(i);
                }
                for (String w : checked.get(i).warnings()) {
                    warnings.add("jobs[" + i + "]: " + w);
                }
            }
            return jobs.pushAll(commands).map(rows -> new PushedAll(rows, warnings));
        }));
    }
}
