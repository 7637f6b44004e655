package dev.steadfast.tenants;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.OperationTime;
import dev.steadfast.http.Body;
import dev.steadfast.http.Json;
import dev.steadfast.model.Dispatch;
import dev.steadfast.model.PoolRow;
import dev.steadfast.store.tenants.SchedulingStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Worker pools and scheduling statistics (ojs-fair-scheduling.md 6, 10). A pool is a stored definition (queues,
 * strategy, queue weights, concurrency) that operators and dashboards read; FETCH still takes the queues a worker
 * names in the order it names them (5.2), and the fairness the server applies itself is between tenants
 * ({@link TenantFairness}). The statistics count the last minute's dispatches per queue and per tenant.
 */
@ApplicationScoped
class SchedulingService {

    static final Duration WINDOW = Duration.ofMinutes(1);
    static final Set<String> STRATEGIES = Set.of("strict", "round-robin", "weighted", "least-loaded");
    static final int MAX_WEIGHT = 1000;
    static final int MAX_QUEUES = 100;

    /** A pool's definition as validated from a PUT body. */
    record PoolDefinition(String strategy, List<String> queues, ObjectNode weights, Integer concurrency) {
    }

    /** The window's dispatches and the active jobs now. */
    record Window(Instant since, List<Dispatch> dispatches, List<SchedulingStore.Active> active) {
    }

    private final SchedulingStore store;
    private final ObjectMapper json;
    private final Clock clock;

    public SchedulingService(SchedulingStore store, ObjectMapper json, Clock clock) {
        this.store = store;
        this.json = json;
        this.clock = clock;
    }

    public Uni<Window> window() {
        Instant since = OperationTime.of(clock).minus(WINDOW);
        return store.dispatches(since).flatMap(d -> store.active().map(a -> new Window(since, d, a)));
    }

    public Uni<List<PoolRow>> pools() {
        return store.pools();
    }

    public Uni<PoolRow> pool(String name) {
        checkName(name);
        return store.findPool(name).map(o -> o.orElseThrow(() -> OjsException.notFound("pool", name)));
    }

    public Uni<PoolRow> save(String name, PoolDefinition d) {
        return store.savePool(name, d.strategy(), d.queues(), Json.write(json, d.weights()), d.concurrency(),
                OperationTime.of(clock));
    }

    public Uni<Void> delete(String name) {
        checkName(name);
        return store.deletePool(name).map(found -> {
            if (!found) {
                throw OjsException.notFound("pool", name);
            }
            return null;
        });
    }

    static String checkName(String name) {
        if (name == null || name.isEmpty() || name.length() > 255 || !JobRules.isQueue(name)) {
            throw OjsException.invalidField("name", "A pool's name must be 1 to 255 characters of a-z, 0-9, '.' and"
                    + " '-', starting with a letter or digit.", "pool name", String.valueOf(name));
        }
        return name;
    }

    /**
     * {@code {"queues": ["a", "b"] | {"a": {"weight": 70}, ...}, "strategy", "weights": {"a": 70}, "concurrency"}}:
     * queues as the spec's list (6.1) or as the conformance suite's object of weights; the name, when the body
     * repeats it, must be the path's.
     */
    PoolDefinition parse(String name, Body b) {
        checkName(name);
        String bodyName = b.string("name", false);
        if (bodyName != null && !bodyName.equals(name)) {
            throw OjsException.invalidField("name", "The body's name must be the path's.", name, bodyName);
        }
        String strategy = b.string("strategy", false);
        strategy = strategy == null ? "round-robin" : strategy;
        if (!STRATEGIES.contains(strategy)) {
            throw OjsException.invalidField("strategy", "'strategy' must be one of " + STRATEGIES + ".",
                    String.join(", ", STRATEGIES), strategy);
        }
        ObjectNode weights = json.createObjectNode();
        List<String> queues = new ArrayList<>();
        JsonNode q = b.raw("queues");
        if (q != null && q.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = q.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                queues.add(JobRules.checkQueue(e.getKey()));
                JsonNode w = e.getValue().isObject() ? e.getValue().get("weight") : null;
                if (w != null) {
                    weights.put(e.getKey(), weight("queues." + e.getKey() + ".weight", w));
                }
            }
        } else {
            b.strings("queues", true).forEach(name1 -> queues.add(JobRules.checkQueue(name1)));
        }
        if (queues.isEmpty() || queues.size() > MAX_QUEUES) {
            throw OjsException.invalidField("queues", "'queues' must name 1 to " + MAX_QUEUES + " queues.");
        }
        Body w = b.object("weights");
        if (w != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = w.node().fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!queues.contains(e.getKey())) {
                    throw OjsException.invalidField("weights." + e.getKey(), "A weight must name one of the pool's"
                            + " queues.");
                }
                weights.put(e.getKey(), weight("weights." + e.getKey(), e.getValue()));
            }
        }
        Long concurrency = b.integer("concurrency");
        if (concurrency != null && (concurrency < 1 || concurrency > Integer.MAX_VALUE)) {
            throw OjsException.invalidField("concurrency", "'concurrency' must be a positive integer.",
                    "1 to " + Integer.MAX_VALUE, concurrency.toString());
        }
        return new PoolDefinition(strategy, queues, weights, concurrency == null ? null : concurrency.intValue());
    }

    private static int weight(String field, JsonNode w) {
        if (!w.isIntegralNumber() || w.asLong() < 1 || w.asLong() > MAX_WEIGHT) {
            throw OjsException.invalidField(field, "A weight must be an integer from 1 to " + MAX_WEIGHT + ".",
                    "1 to " + MAX_WEIGHT, w.toString());
        }
        return w.asInt();
    }
}
