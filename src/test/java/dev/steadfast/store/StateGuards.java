package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.JobState;
import dev.steadfast.domain.JobStateMachine;
import dev.steadfast.domain.JobStateMachine.Operation;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the state guards out of a statement's text, for the tests that check them against {@link JobStateMachine}
 * ({@code StateGuardsTest}, and the claims of other store packages).
 */
public final class StateGuards {

    private StateGuards() {
    }

    private static final Pattern WHERE_STATES = Pattern.compile(
            "\\b(?:j\\.|old\\.)?state\\s*(?:=\\s*'([a-z]+)'|IN\\s*\\(([^)]*)\\))", Pattern.CASE_INSENSITIVE);
    /** {@code SET state = ...} of an UPDATE, or {@code ... AS state} of a move between the tables (HistorySql). */
    private static final Pattern SET_STATE = Pattern.compile(
            "SET\\s+state\\s*=\\s*(CASE.*?END|'[a-z]+')|(CASE[^,]*?END|'[a-z]+')\\s+AS\\s+state\\b",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern QUOTED = Pattern.compile("'([a-z]+)'");

    private static final Pattern END_OF_WHERE = Pattern.compile(
            "\\b(ORDER BY|LIMIT|FOR UPDATE|RETURNING|UPDATE)\\b", Pattern.CASE_INSENSITIVE);

    /** The states named in the statement's first WHERE clause (a CTE's locking SELECT, or the UPDATE's guard). */
    public static Set<JobState> guard(String sql) {
        String where = sql.substring(indexOfWhere(sql));
        Matcher end = END_OF_WHERE.matcher(where);
        if (end.find()) {
            where = where.substring(0, end.start());
        }
        Set<JobState> out = EnumSet.noneOf(JobState.class);
        Matcher m = WHERE_STATES.matcher(where);
        while (m.find()) {
            String list = m.group(1) != null ? "'" + m.group(1) + "'" : m.group(2);
            Matcher q = QUOTED.matcher(list);
            while (q.find()) {
                out.add(JobState.fromWire(q.group(1)).orElseThrow());
            }
        }
        return out;
    }

    /** The states the statement's SET may write (every quoted state in a CASE). */
    public static Set<JobState> sets(String sql) {
        Matcher m = SET_STATE.matcher(sql);
        Set<JobState> out = EnumSet.noneOf(JobState.class);
        if (m.find()) {
            Matcher q = QUOTED.matcher(m.group(1) != null ? m.group(1) : m.group(2));
            while (q.find()) {
                out.add(JobState.fromWire(q.group(1)).orElseThrow());
            }
        }
        return out;
    }

    private static int indexOfWhere(String sql) {
        int i = sql.toUpperCase(Locale.ROOT).indexOf("WHERE");
        assertTrue(i >= 0, "no WHERE in " + sql);
        return i;
    }

    /** Every read of the live table ({@code FROM jobs}) in {@code sql}: the states its WHERE clause names. */
    public static List<Set<JobState>> readsOfJobs(String sql) {
        List<Set<JobState>> out = new ArrayList<>();
        Matcher m = FROM_JOBS.matcher(sql);
        while (m.find()) {
            out.add(guard(enclosed(sql.substring(m.start()))));
        }
        return out;
    }

    /** {@code sql} up to the parenthesis that closes the subquery or CTE it starts in. */
    private static String enclosed(String sql) {
        int depth = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth < 0) {
                return sql.substring(0, i);
            }
        }
        return sql;
    }

    private static final Pattern FROM_JOBS = Pattern.compile("\\bFROM\\s+jobs\\b(?!_)", Pattern.CASE_INSENSITIVE);

    /**
     * A plain claim that discards the expired jobs it passes over (JobSql.withExpired): its first part reads and
     * deletes only jobs EXPIRE starts from and writes what EXPIRE leads to, its reads through the expiry predicate
     * ({@code expires_at <= $2}, domain.JobExpiry.expired's SQL form, $2 maybe JobSql.unseen); the rest is a claim
     * ({@link #assertClaim}).
     */
    public static void assertExpiringClaim(String name, String sql) {
        int next = sql.indexOf("\nnext AS (");
        assertTrue(sql.startsWith("WITH gone AS (") && next > 0, name + " discards what it passes over first");
        String expiry = sql.substring(0, next);
        List<Set<JobState>> reads = readsOfJobs(expiry);
        assertEquals(2, reads.size(), name + ": the expired jobs are locked, then moved to the history");
        for (Set<JobState> read : reads) {
            assertEquals(JobStateMachine.sources(Operation.EXPIRE), read, name + ": the expiry guards on EXPIRE's sources");
        }
        assertTrue(expiry.contains("expires_at <= $2")
                        || expiry.contains("expires_at <= " + JobSql.unseen("$2", "timestamptz")),
                name + ": a job expires at its deadline (JobExpiry.expired)");
        assertEquals(JobStateMachine.targets(Operation.EXPIRE), sets(expiry), name + " discards the expired jobs");
        assertClaim(name, "WITH" + sql.substring(next));
    }

    /**
     * A claim statement: every read of the live table picks only jobs FETCH may start (its WHERE names exactly
     * FETCH's sources), and the write makes them what FETCH leads to.
     */
    public static void assertClaim(String name, String sql) {
        List<Set<JobState>> reads = readsOfJobs(sql);
        assertTrue(!reads.isEmpty(), name + " reads no jobs");
        for (Set<JobState> read : reads) {
            assertEquals(JobStateMachine.sources(Operation.FETCH), read,
                    name + ": every read of jobs guards on the sources of FETCH");
        }
        Set<JobState> written = sets(sql);
        assertTrue(!written.isEmpty() && JobStateMachine.targets(Operation.FETCH).containsAll(written),
                name + " writes " + written + ", FETCH may lead to " + JobStateMachine.targets(Operation.FETCH));
    }
}
