package dev.steadfast.store.webhooks;

import dev.steadfast.model.SubscriptionRow;
import dev.steadfast.store.JobRows;
import dev.steadfast.store.JobStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Webhook subscriptions and deliveries (V34) on the reactive SQL client; the statements and their reasons are in
 * {@link WebhookSql}. A tenant argument of null reads across tenants; a tenant scopes every read and change to
 * that tenant's subscriptions (another tenant's are not found). Nothing here is on the hot path.
 */
@ApplicationScoped
public class WebhookStore {

    private final Pool pool;

    public WebhookStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<SubscriptionRow> insert(NewSubscription s, Instant now) {
        return pool.preparedQuery(WebhookSql.INSERT_SUBSCRIPTION).execute(Tuple.tuple(Arrays.asList(s.id(),
                        s.tenantId(), s.url(), array(s.events()), array(s.queues()), array(s.jobTypes()), s.active(),
                        s.secret(), s.metadata(), s.timeoutMs(), JobStore.odt(now))))
                .map(rows -> subscriptionRow(rows.iterator().next()));
    }

    public Uni<List<SubscriptionRow>> list(String tenant, String afterId, int limit) {
        return pool.preparedQuery(WebhookSql.LIST_SUBSCRIPTIONS).execute(Tuple.of(tenant, afterId, limit))
                .map(rows -> all(rows, WebhookStore::subscriptionRow));
    }

    public Uni<Optional<SubscriptionRow>> find(String id, String tenant) {
        return pool.preparedQuery(WebhookSql.FIND_SUBSCRIPTION).execute(Tuple.of(id, tenant))
                .map(rows -> first(rows, WebhookStore::subscriptionRow));
    }

    public Uni<List<ActiveSubscription>> active() {
        return pool.preparedQuery(WebhookSql.ACTIVE_SUBSCRIPTIONS).execute().map(rows -> all(rows,
                r -> new ActiveSubscription(r.getString("id"), r.getString("tenant_id"),
                        strings(r, "events"), strings(r, "queues"),
                        strings(r, "job_types"))));
    }

    public Uni<Optional<SubscriptionRow>> update(String id, String tenant, SubscriptionChange c, Instant now) {
        return pool.preparedQuery(WebhookSql.UPDATE_SUBSCRIPTION).execute(Tuple.tuple(Arrays.asList(id, tenant,
                        c.url(), array(c.events()), array(c.queues()), array(c.jobTypes()), c.active(), c.metadata(),
                        c.timeoutMs(), JobStore.odt(now))))
                .map(rows -> first(rows, WebhookStore::subscriptionRow));
    }

    public Uni<Optional<SubscriptionRow>> rotate(String id, String tenant, String secret, Instant graceUntil,
                                                 Instant now) {
        return pool.preparedQuery(WebhookSql.ROTATE_SECRET).execute(Tuple.of(id, tenant, secret,
                        JobStore.odt(graceUntil), JobStore.odt(now)))
                .map(rows -> first(rows, WebhookStore::subscriptionRow));
    }

    public Uni<Boolean> delete(String id, String tenant) {
        return pool.preparedQuery(WebhookSql.DELETE_SUBSCRIPTION).execute(Tuple.of(id, tenant))
                .map(rows -> rows.rowCount() > 0);
    }

    public Uni<Void> deactivate(String id, Instant now) {
        return pool.preparedQuery(WebhookSql.DEACTIVATE_SUBSCRIPTION).execute(Tuple.of(id, JobStore.odt(now)))
                .replaceWithVoid();
    }

    /** Writes the deliveries (one statement); how many were new. */
    public Uni<Integer> insertDeliveries(List<NewDelivery> ds, Instant now) {
        int n = ds.size();
        String[] ids = new String[n], subs = new String[n], events = new String[n], types = new String[n],
                subjects = new String[n], bodies = new String[n];
        for (int i = 0; i < n; i++) {
            NewDelivery d = ds.get(i);
            ids[i] = d.id();
            subs[i] = d.subscriptionId();
            events[i] = d.eventId();
            types[i] = d.eventType();
            subjects[i] = d.subject();
            bodies[i] = d.body();
        }
        return pool.preparedQuery(WebhookSql.INSERT_DELIVERIES)
                .execute(Tuple.tuple(Arrays.asList(ids, subs, events, types, subjects, bodies, JobStore.odt(now))))
                .map(RowSet::rowCount);
    }

    /** Leases up to {@code limit} due deliveries to {@code owner} for one attempt each. */
    public Uni<List<ClaimedDelivery>> claim(Instant now, int limit, int marginMs, String owner) {
        return pool.preparedQuery(WebhookSql.CLAIM_DELIVERIES)
                .execute(Tuple.of(JobStore.odt(now), limit, marginMs, owner))
                .map(rows -> all(rows, ClaimedDelivery::from));
    }

    /**
     * Writes attempts' outcomes in one statement; answers, per attempt in order, whether it was written (false when
     * the lease was no longer that attempt's).
     */
    public Uni<List<Boolean>> recordAll(List<AttemptRecord> batch) {
        int n = batch.size();
        String[] ids = new String[n];
        String[] owners = new String[n];
        Integer[] attempts = new Integer[n];
        String[] states = new String[n];
        OffsetDateTime[] next = new OffsetDateTime[n];
        Integer[] statuses = new Integer[n];
        String[] errors = new String[n];
        Integer[] durations = new Integer[n];
        OffsetDateTime[] ats = new OffsetDateTime[n];
        for (int i = 0; i < n; i++) {
            AttemptRecord a = batch.get(i);
            ids[i] = a.id();
            owners[i] = a.owner();
            attempts[i] = a.attempt();
            states[i] = a.state();
            next[i] = JobStore.odt(a.nextAttemptAt());
            statuses[i] = a.status();
            errors[i] = a.error();
            durations[i] = a.durationMs();
            ats[i] = JobStore.odt(a.at());
        }
        return pool.preparedQuery(WebhookSql.RECORD_ATTEMPT).execute(Tuple.tuple(Arrays.asList(ids, owners, attempts,
                states, next, statuses, errors, durations, ats))).map(rows -> {
                    Set<Attempt> written = new HashSet<>();
                    rows.forEach(r -> written.add(new Attempt(r.getString(0), r.getString(1), r.getInteger(2))));
                    List<Boolean> out = new ArrayList<>(n);
                    batch.forEach(a -> out.add(written.contains(new Attempt(a.id(), a.owner(), a.attempt()))));
                    return out;
                });
    }

    /** One attempt of one delivery by one lease holder: what RECORD_ATTEMPT answers for each row it wrote. */
    private record Attempt(String id, String owner, int attempt) {
    }

    public Uni<List<DeliveryRow>> deliveries(String subscription, String state, String tenant, String beforeId,
                                             int limit) {
        return pool.preparedQuery(WebhookSql.LIST_DELIVERIES)
                .execute(Tuple.tuple(Arrays.asList(subscription, state, tenant, beforeId, limit)))
                .map(rows -> all(rows, DeliveryRow::from));
    }

    public Uni<Optional<DeliveryRow>> delivery(String id, String tenant) {
        return pool.preparedQuery(WebhookSql.FIND_DELIVERY).execute(Tuple.of(id, tenant))
                .map(rows -> first(rows, DeliveryRow::from));
    }

    /** Makes a delivery due at {@code now}; empty when it is not found or is being sent right now. */
    public Uni<Optional<DeliveryRow>> retry(String id, String tenant, Instant now) {
        return pool.preparedQuery(WebhookSql.RETRY_DELIVERY).execute(Tuple.of(id, tenant, JobStore.odt(now)))
                .map(rows -> first(rows, DeliveryRow::from));
    }

    /** Deletes up to {@code limit} deliveries finished before {@code cutoff}; how many. */
    public Uni<Integer> pruneFinished(Instant cutoff, int limit) {
        return pool.preparedQuery(WebhookSql.PRUNE_FINISHED).execute(Tuple.of(JobStore.odt(cutoff), limit))
                .map(RowSet::rowCount);
    }

    /** Per subscription, its deliveries' counts by state. */
    public Uni<Map<String, Map<String, Long>>> countsByState(List<String> subscriptions) {
        if (subscriptions.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery(WebhookSql.COUNT_BY_STATE).execute(Tuple.of(subscriptions.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, Map<String, Long>> out = new HashMap<>();
                    for (Row r : rows) {
                        out.computeIfAbsent(r.getString("subscription_id"), k -> new HashMap<>())
                                .put(r.getString("state"), r.getLong("n"));
                    }
                    return out;
                });
    }

    private static String[] array(List<String> l) {
        return l == null ? null : l.toArray(String[]::new);
    }

    private static <T> List<T> all(RowSet<Row> rows, Function<Row, T> f) {
        List<T> out = new ArrayList<>(rows.rowCount());
        for (Row r : rows) {
            out.add(f.apply(r));
        }
        return out;
    }

    private static <T> Optional<T> first(RowSet<Row> rows, Function<Row, T> f) {
        return rows.rowCount() == 0 ? Optional.empty() : Optional.of(f.apply(rows.iterator().next()));
    }

    private static SubscriptionRow subscriptionRow(Row r) {
        return new SubscriptionRow(r.getString("id"), r.getString("tenant_id"), r.getString("url"),
                strings(r, "events"), strings(r, "queues"), strings(r, "job_types"), r.getBoolean("active"),
                r.getString("secret"), r.getString("previous_secret"), JobRows.instant(r, "previous_secret_until"),
                r.getString("metadata"), r.getInteger("timeout_ms"), JobRows.instant(r, "created_at"),
                JobRows.instant(r, "updated_at"));
    }

    static List<String> strings(Row r, String column) {
        String[] a = r.getArrayOfStrings(column);
        return a == null ? List.of() : Arrays.asList(a);
    }
}
