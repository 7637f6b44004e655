package dev.steadfast.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.TraceContext;
import dev.steadfast.http.Body;
import dev.steadfast.model.JobRow;
import dev.steadfast.schemas.ArgsValidation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * PUSH and batch PUSH from a request body in the HTTP binding's shape, whichever binding received it: the one
 * reading of both, which {@link JobResource} and the gRPC binding (grpc.OjsGrpcService) share so that they cannot
 * drift. A PUSH is parsed ({@link EnqueueParser}), its args checked against their type's schema
 * ({@link ArgsValidation}) and enqueued ({@link PushService#enqueue}); a batch is all or nothing, 1 to
 * {@code steadfast.jobs.max-batch} jobs, a refusal naming the index of the job it refuses.
 */
@ApplicationScoped
public class Pushes {

    /** A PUSH's outcome and the schema check's warnings. */
    public record Pushed(PushOutcome outcome, List<String> warnings) {
    }

    /**
     * A bulk enqueue's outcome per job, in request order, and the schema check's warnings by index (only jobs that
     * had some).
     */
    public record Bulked(List<PushOutcome> outcomes, Map<Integer, List<String>> warnings) {
    }

    /** A batch PUSH's jobs, in request order, and the warnings, each prefixed with its job's index. */
    public record PushedAll(List<JobRow> jobs, List<String> warnings) {
    }

    private final PushService jobs;
    private final JobsConfig config;
    private final ObjectMapper json;
    private final Clock clock;
    private final ArgsValidation argsValidation;

    public Pushes(PushService jobs, JobsConfig config, ObjectMapper json, Clock clock, ArgsValidation argsValidation) {
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

    /**
     * Batch PUSH of the jobs in {@code list} (a JSON array, the body's {@code jobs}): all or nothing. Answers
     * {@code answer} of the jobs, which may be rendered while they are written ({@link PushService#pushAll}).
     */
    public <A> Uni<A> pushAll(JsonNode list, TraceContext trace, String tenant, Function<PushedAll, A> answer) {
        return Uni.createFrom().item(() -> {
            int max = config.maxBatch();
            if (list.isEmpty() || list.size() > max) {
                throw OjsException.invalidField("jobs", "'jobs' must hold 1 to " + max + " jobs.",
                        "1 to " + max + " jobs", list.size() + " jobs");
            }
            return list;
        }).flatMap(l -> parseAndCheck(l, trace, tenant, true)).flatMap(checked -> {
            List<String> warnings = new ArrayList<>();
            checked.warnings().forEach((i, ws) -> ws.forEach(w -> warnings.add("jobs[" + i + "]: " + w)));
            return jobs.pushAll(checked.commands(), rows -> answer.apply(new PushedAll(rows, warnings)));
        });
    }

    /**
     * Bulk enqueue (ojs-bulk-operations.md 5) of the body {@code {"jobs": [...], "atomicity": "partial"|"atomic"}},
     * partial by default: each job stands alone, a refused one answered in its place; atomic: all or nothing, the
     * first refusal thrown with its index. More jobs than steadfast.jobs.max-batch: 413; none: 400.
     */
    public Uni<Bulked> bulk(Body b, TraceContext trace, String tenant) {
        return Uni.createFrom().item(() -> {
            JsonNode list = b.array("jobs", true);
            int max = config.maxBatch();
            if (list.size() > max) {
                throw new OjsException(ErrorCode.PAYLOAD_TOO_LARGE, "Batch size " + list.size()
                        + " exceeds the maximum of " + max + ".", Map.of("max_batch_size", max, "received", list.size()));
            }
            if (list.isEmpty()) {
                throw OjsException.invalidField("jobs", "'jobs' must hold 1 to " + max + " jobs.",
                        "1 to " + max + " jobs", "0 jobs");
            }
            String mode = b.string("atomicity", false);
            if (mode != null && !mode.equals("atomic") && !mode.equals("partial")) {
                throw OjsException.invalidField("atomicity", "'atomicity' must be 'atomic' or 'partial'.",
                        "atomic|partial", mode);
            }
            if (b.has("idempotency_key")) {
                throw new OjsException(ErrorCode.UNSUPPORTED, "Bulk idempotency keys are not"
                        + " supported; give the jobs ids of your own, which makes a retried request safe (a taken id"
                        + " is refused, never enqueued twice).", Map.of("field", "idempotency_key"));
            }
            return new BulkRequest(list, "atomic".equals(mode));
        }).flatMap(r -> parseAndCheck(r.list(), trace, tenant, r.atomic())
                .flatMap(c -> jobs.pushBulk(c.commands(), c.refused(), r.atomic())
                        .map(outcomes -> new Bulked(outcomes, c.warnings()))));
    }

    /**
     * The jobs of a batch or bulk PUSH parsed ({@link EnqueueParser}) and their args checked against their schemas,
     * in request order; a refusal names the job's index. {@code allOrNothing}: the first refusal is thrown; otherwise
     * a refused job's command is null and its refusal kept by index.
     */
    private Uni<Checked> parseAndCheck(JsonNode list, TraceContext trace, String tenant, boolean allOrNothing) {
        List<EnqueueCommand> commands = new ArrayList<>(list.size());
        Map<Integer, OjsException> refused = new HashMap<>();
        Instant now = clock.instant();
        for (int i = 0; i < list.size(); i++) {
            try {
                commands.add(EnqueueParser.parse(json, Body.element(json, list.get(i), "jobs[" + i + "]"), now,
                        trace, tenant));
            } catch (OjsException e) {
                if (allOrNothing) {
                    return Uni.createFrom().failure(e.atIndex(i));
                }
                refused.put(i, e.atIndex(i));
                commands.add(null);
            }
        }
        return argsValidation.checkEach(commands).map(outcomes -> {
            Map<Integer, List<String>> warnings = new TreeMap<>();
            for (int i = 0; i < outcomes.size(); i++) {
                ArgsValidation.Outcome o = outcomes.get(i);
                if (o.refusal() != null) {
                    if (allOrNothing) {
                        throw o.refusal().atIndex(i);
                    }
                    refused.put(i, o.refusal().atIndex(i));
                    commands.set(i, null);
                } else if (!o.warnings().isEmpty()) {
                    warnings.put(i, o.warnings());
                }
            }
            return new Checked(commands, refused, warnings);
        });
    }

    /** Parsed and checked jobs: a refused one's command null, its refusal and any job's warnings by index. */
    private record Checked(List<EnqueueCommand> commands, Map<Integer, OjsException> refused,
                           Map<Integer, List<String>> warnings) {
    }

    private record BulkRequest(JsonNode list, boolean atomic) {
    }
}
