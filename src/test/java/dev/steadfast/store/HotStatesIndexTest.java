package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.steadfast.domain.JobState;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The console's partial indexes (V5__lean_hot_path.sql) hold exactly the cold states of {@link HotStates}, so the
 * console's queries can use them and the hot transitions never write them.
 */
@QuarkusTest
class HotStatesIndexTest {

    static final Set<String> CONSOLE_INDEXES = Set.of("jobs_created_idx", "jobs_state_created_idx",
            "jobs_queue_created_idx", "jobs_type_created_idx", "jobs_tags_idx", "jobs_queue_state_idx",
            "jobs_search_idx");

    @Inject
    Pool pool;

    @Test
    void everyConsoleIndexIsPartialOnExactlyTheColdStates() {
        Set<String> cold = HotStates.COLD.stream().map(JobState::wire).collect(Collectors.toCollection(TreeSet::new));
        Set<String> seen = new TreeSet<>();
        for (Row r : pool.query("""
                SELECT c.relname, pg_get_expr(i.indpred, i.indrelid) AS pred
                FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                WHERE i.indrelid = 'jobs'::regclass""").execute().await().indefinitely()) {
            String name = r.getString("relname");
            if (!CONSOLE_INDEXES.contains(name)) {
                continue;
            }
            seen.add(name);
            Set<String> states = new TreeSet<>();
            Matcher m = Pattern.compile("'([a-z]+)'").matcher(String.valueOf(r.getString("pred")));
            while (m.find()) {
                states.add(m.group(1));
            }
            assertEquals(cold, states, name + " is partial on " + r.getString("pred"));
        }
        assertEquals(new TreeSet<>(CONSOLE_INDEXES), seen);
        HotStates.HOT.forEach(s -> assertFalse(cold.contains(s.wire())));
        assertEquals(Set.of(JobState.AVAILABLE, JobState.ACTIVE), HotStates.HOT);
    }
}
