package dev.steadfast.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.domain.JobExpiry;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.events.Telemetry;
import dev.steadfast.events.WorkSignal;
import dev.steadfast.model.JobRow;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

/**
 * The producer-side OJS operations on a job that exists: INFO, CANCEL and ACTIVATE (PUSH: {@link PushService}). Each
 * reads the clock once, applies the domain rules, and makes one atomic change through the store.
 */
@ApplicationScoped
public class JobService {

    private final JobStore store;
    private final Clock clock;
    private final Telemetry telemetry;
    private final ObjectMapper json;
    private final WorkSignal signal;
    private final ExpiredOnRead expiredOnRead;

    public JobService(JobStore store, Clock clock, Telemetry telemetry, ObjectMapper json, WorkSignal signal,
                      ExpiredOnRead expiredOnRead) {
        this.store = store;
        this.clock = clock;
        this.telemetry = telemetry;
        this.json = json;
        this.signal = signal;
        this.expiredOnRead = expiredOnRead;
    }

    /** ACTIVATE: a pending job becomes available; 404 when unknown, 409 when not pending. */
    public Uni<JobRow> activate(UUID id) {
        Instant now = OperationTime.of(clock);
        return store.activate(id, now).flatMap(o -> {
            if (o.isPresent()) {
                telemetry.pushed(o.get(), now);
                signal.announce(o.get());
                return Uni.createFrom().item(o.get());
            }
            return Refusals.explain(store, id, Operation.ACTIVATE, now).map(x -> (JobRow) null);
        });
    }

    /**
     * INFO: the whole job; 404 when unknown. A job read waiting past its expires_at (JobExpiry.due: the claim passes
     * it over, the reaper has not come by yet) is discarded first, as the reaper would, and answered as it is then.
     */
    public Uni<JobRow> info(UUID id) {
        return store.find(id).flatMap(o -> {
            JobRow row = o.orElseThrow(() -> OjsException.notFound("job", id.toString()));
            Instant now = OperationTime.of(clock);
            if (!JobExpiry.due(row.state(), row.expiresAt(), now)) {
                return Uni.createFrom().item(row);
            }
            return expiredOnRead.discard(id, now).flatMap(v -> store.find(id))
                    .map(again -> again.orElseThrow(() -> OjsException.notFound("job", id.toString())));
        });
    }

    /**
     * INFO for a request naming {@code tenant} (null: none): a request naming a tenant sees only that tenant's jobs
     * (ojs-multi-tenancy 6), so another tenant's job, or one without a tenant, is 404 as if it did not exist.
     */
    public Uni<JobRow> infoFor(UUID id, String tenant) {
        return info(id).invoke(row -> {
            if (tenant != null && !tenant.equals(tenantOf(row))) {
                throw OjsException.notFound("job", id.toString());
            }
        });
    }

    /** CANCEL for a request naming {@code tenant} (null: none): another tenant's job is 404, as {@link #infoFor}. */
    public Uni<JobStore.Cancelled> cancelFor(UUID id, String tenant) {
        // a tenant's job keeps its tenant for life, so checking it before the cancel cannot race
        return tenant == null ? cancel(id) : infoFor(id, tenant).flatMap(row -> cancel(id));
    }

    private String tenantOf(JobRow row) {
        if (row.metaJson() == null || !row.metaJson().contains("\"tenant_id\"")) {
            return null;
        }
        try {
            JsonNode t = json.readTree(row.metaJson()).get("tenant_id");
            return t != null && t.isTextual() ? t.textValue() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** CANCEL: 404 when unknown, 409 when the job is already terminal. */
    public Uni<JobStore.Cancelled> cancel(UUID id) {
        return cancel(id, "api");
    }

    /** CANCEL on behalf of {@code by} (an operator: "console:alice"), recorded in the job.cancelled event. */
    public Uni<JobStore.Cancelled> cancel(UUID id, String by) {
        Instant now = OperationTime.of(clock);
        return store.cancel(id, JobStateMachine.sourceNames(Operation.CANCEL), now).flatMap(o -> {
            if (o.isPresent()) {
                telemetry.cancelled(o.get().job(), o.get().previousState(), by, now);
                return Uni.createFrom().item(o.get());
            }
            return Refusals.explain(store, id, Operation.CANCEL, now).map(x -> (JobStore.Cancelled) null);
        });
    }

}
