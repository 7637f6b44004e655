package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

/** The live table and the history admit exactly the states {@link LiveStates} assigns them. */
@QuarkusTest
class LiveStatesTest {

    @Inject
    Pool pool;

    @Test
    void eachTableAdmitsExactlyItsStates() {
        assertEquals(wires(LiveStates.LIVE), checked("jobs", "jobs_live_only"));
        assertEquals(wires(LiveStates.FINISHED), checked("job_history", "history_is_finished"));
        assertEquals(Set.of(JobState.COMPLETED, JobState.CANCELLED, JobState.DISCARDED), LiveStates.FINISHED);
        for (JobState s : JobState.values()) {
            assertEquals(LiveStates.FINISHED.contains(s) ? "job_history" : "jobs", LiveStates.tableOf(s));
        }
    }

    private Set<String> checked(String table, String constraint) {
        Row r = pool.preparedQuery("""
                SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c
                WHERE c.conrelid = $1::regclass AND c.conname = $2""")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(table, constraint)).await().indefinitely()
                .iterator().next();
        Set<String> states = new TreeSet<>();
        Matcher m = Pattern.compile("'([a-z]+)'").matcher(r.getString(0));
        while (m.find()) {
            states.add(m.group(1));
        }
        return states;
    }

    private static Set<String> wires(Set<JobState> states) {
        return states.stream().map(JobState::wire).collect(Collectors.toCollection(TreeSet::new));
    }
}
