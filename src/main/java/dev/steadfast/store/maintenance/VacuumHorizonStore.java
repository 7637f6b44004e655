package dev.steadfast.store.maintenance;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * What holds back VACUUM on this database's tables: the oldest open transaction, the transaction whose snapshot
 * or transaction id is the oldest (the xmin horizon: no row deleted or updated after it started can be removed,
 * so the claim's index scans walk ever more dead rows), prepared transactions, and replication slots that keep an
 * xmin. One read of PostgreSQL's statistics views, no locks, no table touched.
 *
 * <p>Limit: PostgreSQL shows another role's sessions' times and xmin only to superusers and members of
 * {@code pg_read_all_stats} (or {@code pg_monitor}); without that role this sees the server's own role only.
 */
@ApplicationScoped
public class VacuumHorizonStore {

    /**
     * Sessions of this database only (another database's snapshots do not hold back this one's tables), this
     * session excluded. The holder is the session whose xmin or xid is oldest, by age in transactions, since that
     * and not the transaction's start decides what VACUUM may remove; a READ COMMITTED session idle in a
     * transaction that wrote holds the horizon by its xid, one that only read holds nothing between statements.
     * Among sessions whose xmin is as old (no transaction began between them), the one open longest is named: a
     * statement that took the same snapshot a moment ago ends soon, the long-open transaction is the one to act on.
     */
    static final String READ_HORIZON = "WITH tx AS ("
            + " SELECT pid, state, xact_start, greatest(age(backend_xmin), age(backend_xid)) AS xid_age"
            + " FROM pg_stat_activity"
            + " WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL)"
            + " SELECT (SELECT min(xact_start) FROM tx) AS oldest_start,"
            + " (SELECT min(prepared) FROM pg_prepared_xacts WHERE database = current_database()) AS prepared_start,"
            + " h.pid AS holder_pid, h.state AS holder_state, h.xact_start AS holder_start, h.xid_age AS holder_xids,"
            + " s.slot_name, s.xid_age AS slot_xids"
            + " FROM (SELECT 1) one"
            + " LEFT JOIN LATERAL (SELECT * FROM tx WHERE xid_age IS NOT NULL ORDER BY xid_age DESC, xact_start LIMIT 1) h"
            + " ON true"
            + " LEFT JOIN LATERAL (SELECT slot_name::text, greatest(age(xmin), age(catalog_xmin)) AS xid_age"
            + " FROM pg_replication_slots WHERE xmin IS NOT NULL OR catalog_xmin IS NOT NULL"
            + " ORDER BY 2 DESC LIMIT 1) s ON true";

    private final Pool pool;

    public VacuumHorizonStore(Pool pool) {
        this.pool = pool;
    }

    public Uni<Horizon> read() {
        return pool.query(READ_HORIZON).execute().map(rows -> {
            Row r = rows.iterator().next();
            return new Horizon(instant(r, "oldest_start"), instant(r, "prepared_start"), r.getInteger("holder_pid"),
                    r.getString("holder_state"), instant(r, "holder_start"), r.getLong("holder_xids"),
                    r.getString("slot_name"), r.getLong("slot_xids"));
        });
    }

    private static Instant instant(Row r, String column) {
        OffsetDateTime t = r.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }

    /**
     * One reading; every field may be null (nothing open, no slot).
     *
     * @param oldestStart  when the oldest open transaction in this database started
     * @param preparedStart when the oldest prepared (two-phase) transaction was prepared
     * @param holderPid    the session holding the horizon, its state ({@code idle in transaction}, ...) and start
     * @param holderXids   how many transactions old its xmin or xid is
     * @param slot         the replication slot with the oldest xmin, and how many transactions old that is
     */
    public record Horizon(Instant oldestStart, Instant preparedStart, Integer holderPid, String holderState,
                          Instant holderStart, Long holderXids, String slot, Long slotXids) {
    }
}
