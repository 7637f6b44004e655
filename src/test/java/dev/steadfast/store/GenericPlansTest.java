package dev.steadfast.store;

import static dev.steadfast.testsupport.Api.JOBS;
import static dev.steadfast.testsupport.Api.arr;
import static dev.steadfast.testsupport.Api.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.testsupport.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The hot statements are planned once per connection: after the five custom plans PostgreSQL always makes, it keeps
 * the generic plan, instead of planning every execution anew. Nothing else shows it: a statement planned per call
 * returns the same rows, parses once (CostBudgetTest) and only costs PostgreSQL's CPU (0.5-1.6 ms a call for the
 * claim and COMPLETE when it happened; JobSql.unseen says why).
 *
 * <p>Whether PostgreSQL keeps the generic plan depends on the statistics of the moment, so the test checks the cause
 * rather than one outcome: for W2's values (a queue with jobs waiting, once before the statistics know it and once
 * after ANALYZE; a FETCH of one queue and of two; an ACK of three jobs, as W2's coalesced ACKs are) the generic plan
 * must not be estimated dearer than the custom one. It also runs
 * each statement seven times on one connection of the server's own pool (the same client, cache and parameter types),
 * in transactions rolled back, and reads pg_prepared_statements there.
 */
@QuarkusTest
class GenericPlansTest {

    private static final int RUNS = 7;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Pool pool;

    @Test
    void theClaimsAndCompleteKeepTheirGenericPlan() {
        Api.reset();
        String queue = "plans-" + System.nanoTime();
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            jobs.add(obj("type", "plans.test", "queue", queue, "args", arr(i)));
        }
        Api.send(obj("jobs", jobs)).post(JOBS + "/batch").then().statusCode(201);

        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String[] twoQueues = {queue, queue + "-b"};
        UUID[] three = {UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID()};
        List<Statement> statements = List.of(
                new Statement("claimOne(10)", JobSql.claimOne(10), Tuple.tuple(Arrays.asList(queue, now, "w", null,
                        20))),
                new Statement("claimFrom(10)", JobSql.claimFrom(10), Tuple.tuple(Arrays.asList(queue, now, "w", null,
                        0, now.minusSeconds(60), 20))),
                new Statement("claimQueues(10)", JobSql.claimQueues(10), Tuple.tuple(Arrays.asList(twoQueues, now,
                        "w", null, 20))),
                new Statement("COMPLETE", JobSql.COMPLETE, Tuple.of(three, new String[3],
                        new String[] {"w", "w", "w"}, now, new String[] {"active"})));

        // a queue the statistics do not know yet (W2's start), then the same once ANALYZE has counted its jobs
        List<String> dearer = new ArrayList<>(dearer(statements, "before ANALYZE"));
        pool.query("ANALYZE jobs").execute().await().indefinitely();
        dearer.addAll(dearer(statements, "after ANALYZE"));
        assertTrue(dearer.isEmpty(), "a generic plan estimated dearer than the custom one for these values: after the"
                + " fifth execution PostgreSQL would plan every execution anew " + dearer);

        SqlConnection c = pool.getConnection().await().indefinitely();
        Map<String, String> plans;
        try {
            for (Statement st : statements) {
                for (int i = 0; i < RUNS; i++) {
                    runRolledBack(c, st.sql(), st.params());
                }
            }
            plans = planCounts(c, statements);
        } finally {
            c.closeAndAwait();
        }
        assertEquals(statements.size(), plans.size(), "every statement is prepared on the connection: " + plans);
        plans.forEach((name, counts) -> assertTrue(counts.startsWith("generic "),
                name + " is planned anew on every execution (" + counts + " after " + RUNS + " runs)"));
    }

    /** A statement as the server runs it, named for the messages, with W2's values. */
    private record Statement(String name, String sql, Tuple params) {
    }

    /** The statements whose generic plan is estimated dearer than their custom plan, {@code when}. */
    private List<String> dearer(List<Statement> statements, String when) {
        List<String> out = new ArrayList<>();
        for (Statement st : statements) {
            double custom = cost(st.sql(), st.params(), "force_custom_plan");
            double generic = cost(st.sql(), st.params(), "force_generic_plan");
            if (generic > custom * 1.01 + 1) {
                out.add(st.name() + " " + when + ": generic " + generic + " against custom " + custom);
            }
        }
        return out;
    }

    /**
     * The estimated total cost of {@code sql}'s plan for {@code params} under {@code mode}: the statement prepared in
     * SQL (PREPARE, its parameters' types as the client's Parse left them open) and explained with the values written
     * out, as PostgreSQL's plan cache compares them.
     */
    private double cost(String sql, Tuple params, String mode) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            values.add(literal(params.getValue(i)));
        }
        String name = "cost_" + System.nanoTime(); // a failed EXPLAIN leaves it prepared on that connection
        String explain = "EXPLAIN (FORMAT JSON) EXECUTE " + name + "(" + String.join(", ", values) + ")";
        return pool.withTransaction(c -> c.query("SET LOCAL plan_cache_mode = " + mode).execute()
                .chain(() -> c.query("PREPARE " + name + " AS " + sql).execute())
                .chain(() -> c.query(explain).execute())
                .call(() -> c.query("DEALLOCATE " + name).execute())
                .map(rows -> {
                    try {
                        JsonNode plan = JSON.readTree(rows.iterator().next().getValue(0).toString());
                        return plan.get(0).get("Plan").get("Total Cost").asDouble();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                })).await().indefinitely();
    }

    private static String literal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Number) {
            return v.toString();
        }
        if (v instanceof OffsetDateTime t) {
            return "'" + t + "'::timestamptz";
        }
        if (v instanceof Object[] a) {
            List<String> items = new ArrayList<>();
            for (Object o : a) {
                items.add(o == null ? "NULL" : "'" + o + "'");
            }
            return "ARRAY[" + String.join(", ", items) + "]::" + (a instanceof UUID[] ? "uuid[]" : "text[]");
        }
        return "'" + v.toString().replace("'", "''") + "'";
    }

    private static void runRolledBack(SqlConnection c, String sql, Tuple params) {
        c.begin().chain(tx -> c.preparedQuery(sql).execute(params).chain(rows -> tx.rollback()))
                .await().indefinitely();
    }

    /** Per statement (by name): "generic N custom M", generic first when it has any. */
    private static Map<String, String> planCounts(SqlConnection c, List<Statement> statements) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Row r : c.query("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements")
                .execute().await().indefinitely()) {
            for (Statement st : statements) {
                if (st.sql().equals(r.getString("statement"))) {
                    long generic = r.getLong("generic_plans");
                    long custom = r.getLong("custom_plans");
                    out.put(st.name(),
                            (generic > 0 ? "generic " + generic + " custom " : "custom only: ") + custom);
                }
            }
        }
        return out;
    }
}
