#!/usr/bin/env bash
# The lean write path: the two table designs measured side by side at the raw-SQL level, plus
# the schema before either, on the peers' benchmark cluster (127.0.0.1:55433, ../shared/peers-bench/pg.sh), with
# pgbench custom scripts in the style of ../shared/peers-bench/baseline/*.sql.
#
#   old  migrations V1..V4: every console index is full (16 indexes on jobs)
#   b    V1..V5 (the chosen design): the console indexes are partial on the cold states, so available -> active
#        never writes them; statement-level insert trigger doing pg_notify
#   a    V1..V4, then: the console indexes (V3 trigram search, V4 created/state/queue/type/tags/queue_state/
#        available_age, jobs_finished_idx, the dead-letter indexes) and jobs_lease_owner_idx dropped from jobs,
#        which keeps pkey, jobs_claim_idx, jobs_lease_idx, jobs_due_idx; a jobs_history table
#        (LIKE jobs INCLUDING DEFAULTS INCLUDING CONSTRAINTS) with a primary key (GET /jobs/{id} must still find a
#        finished job) and those console indexes as in V3/V4 (full, not cold-partial); ACK moves the row
#        (DELETE ... RETURNING into INSERT INTO jobs_history). V5's notify trigger is added to jobs too, so a and b
#        differ only in the table layout.
#
# Workloads (each a pgbench script written to a temp dir; -M prepared; durability at the cluster's defaults):
#   cycle        CYCLE_PREFILL available jobs (untimed, then VACUUM ANALYZE + CHECKPOINT); CYCLE_CLIENTS clients
#                loop: claim 10 (JobSql.CLAIM, one queue), then complete them (JobSql.COMPLETE; the move for a),
#                two transactions, for CYCLE_SECONDS.
#   bulk-insert  1,000-row INSERTs in the JobSql.INSERT_JOBS shape (rows from generate_series instead of bound
#                arrays), BULK_CLIENTS client(s), BULK_SECONDS, empty table at the start.
#   fail-retry   FAIL_PREFILL available jobs; FAIL_CLIENTS clients loop: claim 10; the jobs on their first attempt
#                get a failure recorded (JobSql.RECORD_FAILURES: retryable, error entry appended to errors, due at
#                once: run_at an hour back, so the next claims take them first), the jobs on a later attempt are
#                completed (COMPLETE, or the move for a). So every job runs claim, fail, claim, complete (W4).
#   jobs/s = jobs completed (cycle, fail-retry) or inserted (bulk) according to the tables after the run, divided by
#   pgbench's own run time (transactions / tps). An "EXHAUSTED" flag means fewer than one batch per client of
#   claimable jobs was left at the end (raise the prefill).
#
# Every cell gets RUNS runs, alternating schemas (old, b, a, old, b, a, ...) so noise hits all of them alike; the
# databases are reset before every run (TRUNCATE + prefill + VACUUM ANALYZE + CHECKPOINT). Before each run the
# script waits up to LOAD_WAIT s for the 1-minute load average to drop below LOAD_MAX and prints `uptime`.
# Reported per cell: median and min-max jobs/s, PostgreSQL CPU time per job (all server processes, from /proc: the
# number the machine's other load disturbs least), WAL bytes per job (pg_current_wal_lsn before/after; cluster-wide,
# so anything else on the cluster shows up in it), the load average before the runs, and the table + index sizes
# after the last run. Raw rows: $OUT/raw.tsv; the table: $OUT/table.md (also printed). Not used by tests or CI.
#
# Usage: scripts/lean-path-designs.sh        (from anywhere; the cluster must be running: ../shared/peers-bench/pg.sh start)
# Environment (defaults):
#   WORKLOADS="cycle bulk-insert fail-retry"  SCHEMAS="old b a"  RUNS=3
#   CYCLE_SECONDS=10 CYCLE_CLIENTS=8 CYCLE_PREFILL=120000  BATCH=10
#   BULK_SECONDS=8 BULK_CLIENTS=1 BULK_ROWS=1000
#   FAIL_SECONDS=8 FAIL_CLIENTS=8 FAIL_PREFILL=100000
#   MAX_SECONDS=930 (budget: a run that would start after it is skipped, and listed as skipped at the end)
#   LOAD_MAX=2 LOAD_WAIT=20 (s)  DB_PREFIX=leanpath_  HOST=127.0.0.1 PORT=55433  OUT=/tmp/lean-path-designs/<stamp>
#   KEEP_DBS=1 (0: drop the three databases at the end)
# Bounded: every pgbench runs under `timeout` (its -T + 60 s), every statement under statement_timeout=300s; the
# defaults take ~15 min on the 2-core machine when the load never drops (27 runs, each waiting the full 20 s), and
# MAX_SECONDS caps it. Prefill sizes leave headroom for ~12k jobs/s in both claim workloads; raise them on a faster box.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
MIG=$ROOT/src/main/resources/db/migration
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-55433}
WORKLOADS=${WORKLOADS:-"cycle bulk-insert fail-retry"}
SCHEMAS=${SCHEMAS:-"old b a"}
RUNS=${RUNS:-3}
BATCH=${BATCH:-10}
CYCLE_SECONDS=${CYCLE_SECONDS:-10}
CYCLE_CLIENTS=${CYCLE_CLIENTS:-8}
CYCLE_PREFILL=${CYCLE_PREFILL:-120000}
BULK_SECONDS=${BULK_SECONDS:-8}
BULK_CLIENTS=${BULK_CLIENTS:-1}
BULK_ROWS=${BULK_ROWS:-1000}
FAIL_SECONDS=${FAIL_SECONDS:-8}
FAIL_CLIENTS=${FAIL_CLIENTS:-8}
FAIL_PREFILL=${FAIL_PREFILL:-100000}
MAX_SECONDS=${MAX_SECONDS:-930}
LOAD_MAX=${LOAD_MAX:-2}
LOAD_WAIT=${LOAD_WAIT:-20}
DB_PREFIX=${DB_PREFIX:-leanpath_}
KEEP_DBS=${KEEP_DBS:-1}
OUT=${OUT:-/tmp/lean-path-designs/$(date -u +%Y%m%dT%H%M%SZ)}

export PGOPTIONS='-c client_min_messages=warning -c statement_timeout=300s'
PSQL=("$PGBIN/psql" -h "$HOST" -p "$PORT" -U postgres -X -q -v ON_ERROR_STOP=1)
die() { echo "lean-path-designs: $*" >&2; exit 2; }
log() { echo "[$(date -u +%H:%M:%S)] $*"; }
q() { local db=$1; shift; "${PSQL[@]}" -d "$db" -At "$@"; }   # q DB -c SQL ...

"${PSQL[@]}" -d postgres -c 'select 1' >/dev/null 2>&1 || die "no PostgreSQL on $HOST:$PORT (../shared/peers-bench/pg.sh start)"
for s in $SCHEMAS; do case $s in old|a|b) ;; *) die "unknown schema $s (old, b, a)" ;; esac; done
for w in $WORKLOADS; do case $w in cycle|bulk-insert|fail-retry) ;; *) die "unknown workload $w" ;; esac; done
for v in 1 2 3 4 5; do ls "$MIG"/V${v}__*.sql >/dev/null 2>&1 || die "migration V$v missing under $MIG"; done
mkdir -p "$OUT"
W=$OUT/sql
mkdir -p "$W"
RAW=$OUT/raw.tsv
printf 'workload\tschema\trun\tjobs\tseconds\tjobs_per_s\twal_bytes\tload1\tload5\tload15\tleft\texhausted\tsizes\tpg_cpu_s\n' >"$RAW"
log "output: $OUT"

# ---------------------------------------------------------------------------------------------------------------
# Schemas
# ---------------------------------------------------------------------------------------------------------------

# Helpers in every database (not part of the schema under test): a UUIDv7 like the server's ids (time-ordered, so
# primary-key inserts land at the right edge as they do in production), and a prefill that goes through the same
# INSERT statement the bulk-insert workload times.
cat >"$W/helpers.sql" <<'SQL'
CREATE FUNCTION bench_uuid7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING
         substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
         52, 1), 53, 1), 'hex')::uuid
$$;
-- The error entry a FAIL appends (AttemptOutcomes: ErrorEntry with a short backtrace), as JSON text. A function only
-- because pgbench would read the ":88" / ":00" inside such a literal as variables.
CREATE FUNCTION bench_error_entry() RETURNS text LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('run', 1, 'attempt', 1, 'type', 'smtp.timeout', 'code', 'ETIMEDOUT',
         'message', 'connection to smtp.example.com:587 timed out after 30000 ms', 'occurred_at', now(),
         'details', jsonb_build_object('host', 'smtp.example.com'),
         'backtrace', jsonb_build_array('at dev.example.Mailer.send(Mailer.java:88)',
                                        'at dev.example.Worker.handle(Worker.java:42)'))::text
$$;
SQL

# Design (a): hot table + history table (see the header)
cat >"$W/design_a.sql" <<'SQL'
DROP INDEX jobs_search_idx, jobs_created_idx, jobs_state_created_idx, jobs_queue_created_idx, jobs_type_created_idx,
           jobs_tags_idx, jobs_queue_state_idx, jobs_available_age_idx, jobs_finished_idx, jobs_dead_letter_idx,
           jobs_dead_letter_queue_idx, jobs_lease_owner_idx;
CREATE TABLE jobs_history (LIKE jobs INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE jobs_history ADD PRIMARY KEY (id);
CREATE INDEX jobs_history_search_idx ON jobs_history USING gin (job_search_text(args, meta, errors) gin_trgm_ops);
CREATE INDEX jobs_history_created_idx ON jobs_history (created_at, id);
CREATE INDEX jobs_history_state_created_idx ON jobs_history (state, created_at, id);
CREATE INDEX jobs_history_queue_created_idx ON jobs_history (queue, created_at, id);
CREATE INDEX jobs_history_type_created_idx ON jobs_history (type, created_at, id);
CREATE INDEX jobs_history_tags_idx ON jobs_history USING gin (tags);
CREATE INDEX jobs_history_queue_state_idx ON jobs_history (queue, state);
CREATE INDEX jobs_history_available_age_idx ON jobs_history (queue, run_at) WHERE state = 'available';
CREATE INDEX jobs_history_finished_idx ON jobs_history (completed_at) INCLUDE (state)
    WHERE state IN ('completed', 'discarded', 'cancelled') AND NOT dead_letter;
CREATE INDEX jobs_history_dead_letter_idx ON jobs_history (discarded_at DESC, id DESC) WHERE dead_letter;
CREATE INDEX jobs_history_dead_letter_queue_idx ON jobs_history (queue, discarded_at DESC, id DESC) WHERE dead_letter;
-- V5's notify trigger, so that a differs from b only in the table layout
CREATE FUNCTION steadfast_notify_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('steadfast_jobs', q.queue) FROM (SELECT DISTINCT queue FROM inserted WHERE state = 'available') q;
    RETURN NULL;
END
$$;
CREATE TRIGGER jobs_notify_inserted AFTER INSERT ON jobs REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION steadfast_notify_inserted();
SQL

db_of() { echo "${DB_PREFIX}$1"; }

create_schema() { # SCHEMA
  local s=$1 db v
  db=$(db_of "$s")
  "${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
  for v in 1 2 3 4; do "${PSQL[@]}" -d "$db" -f "$MIG"/V${v}__*.sql >/dev/null; done
  case $s in
    b) "${PSQL[@]}" -d "$db" -f "$MIG"/V5__*.sql >/dev/null ;;
    a) "${PSQL[@]}" -d "$db" -f "$W/design_a.sql" >/dev/null ;;
  esac
  "${PSQL[@]}" -d "$db" -f "$W/helpers.sql" >/dev/null
  log "schema $s in database $db: $(q "$db" -c "select string_agg(c.relname || '(' || (select count(*) from pg_index i where i.indrelid = c.oid) || ' indexes)', ', ' order by c.relname) from pg_class c where c.relname in ('jobs', 'jobs_history')")"
}

# ---------------------------------------------------------------------------------------------------------------
# SQL: the statements of JobSql with the parameters the server binds replaced by pgbench variables / now()
# ---------------------------------------------------------------------------------------------------------------

# The job rows of a PUSH: the INSERT_JOBS statement over rows generated in SQL (psql/pgbench variable :n rows).
# retry_policy is what the server stores for the default policy (RetryPolicy.toWire, ~200 bytes).
insert_sql() { # N (a number or a pgbench/psql variable reference)
  cat <<SQL
INSERT INTO jobs (id, type, queue, args, meta, extensions, priority, tags, state, max_attempts,
                  retry_policy, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at,
                  created_at, enqueued_at)
SELECT u.id, u.type, u.queue, u.args::jsonb, u.meta::jsonb, u.ext::jsonb, u.priority,
       ARRAY(SELECT jsonb_array_elements_text(u.tags::jsonb)), u.state, u.max_attempts,
       u.retry::jsonb, u.timeout_ms, u.vis_ms, u.run_at, u.scheduled_at, u.expires_at,
       u.created_at, u.enqueued_at
FROM (SELECT bench_uuid7() AS id, 'email.send'::text AS type, 'default'::text AS queue,
             '[{"to": "user' || g || '@example.com", "template": "welcome", "n": ' || g || '}]' AS args,
             '{"tenant": "t1"}'::text AS meta, NULL::text AS ext, 0 AS priority, '["email"]'::text AS tags,
             'available'::text AS state, 3 AS max_attempts,
             '{"max_attempts": 3, "initial_interval": "PT1S", "backoff_coefficient": 2.0, "max_interval": "PT5M", "jitter": true, "non_retryable_errors": [], "on_exhaustion": "discard", "backoff_strategy": "exponential"}'::text AS retry,
             1800000::int8 AS timeout_ms, 30000::int8 AS vis_ms, now() AS run_at, NULL::timestamptz AS scheduled_at,
             NULL::timestamptz AS expires_at, now() AS created_at, now() AS enqueued_at
      FROM generate_series(1, $1) AS g) AS u
ON CONFLICT (id) DO NOTHING
RETURNING id;
SQL
}

# CLAIM (one queue, $2 = now(), $3 = BATCH, $4 = this client's worker id, $5 = NULL), returning the lean columns
# as the server does; the ids (and, for fail-retry, which attempt each is on) are handed to the next statement.
LEAN="j.id, j.type, j.queue, j.priority, j.tags, j.state, j.attempt, j.snoozes, j.max_attempts, j.run,
       j.timeout_ms, j.visibility_timeout_ms, j.run_at, j.scheduled_at, j.expires_at, j.retry_delay_ms,
       j.dead_letter, j.created_at, j.enqueued_at, j.started_at, j.completed_at, j.cancelled_at, j.discarded_at,
       j.lease_owner, j.lease_expires_at, j.execution_deadline, j.lease_renewed_at, j.args::text AS args,
       j.meta::text AS meta, j.extensions::text AS extensions, j.retry_policy::text AS retry_policy,
       NULL::text AS error, NULL::text AS errors, NULL::text AS result"
claim_sql() { # SELECT-LIST-OVER-c
  cat <<SQL
WITH next AS (
    SELECT c.id, r.ord FROM unnest(ARRAY['default']::text[]) WITH ORDINALITY AS r(q, ord)
    CROSS JOIN LATERAL (
        SELECT id, priority, run_at FROM jobs
        WHERE queue = r.q AND state IN ('available', 'scheduled', 'retryable') AND run_at <= now()
          AND NOT EXISTS (SELECT 1 FROM queues p WHERE p.name = r.q AND p.paused)
        ORDER BY priority DESC, run_at, id
        LIMIT $BATCH
        FOR UPDATE SKIP LOCKED) c
    ORDER BY r.ord, c.priority DESC, c.run_at, c.id
    LIMIT $BATCH),
c AS (
UPDATE jobs j SET state = 'active', attempt = j.attempt + 1, started_at = now(), lease_owner = 'w' || :client_id::text,
       lease_renewed_at = now(),
       enqueued_at = j.run_at, run_at = NULL,
       execution_deadline = now() + j.timeout_ms * interval '1 millisecond',
       lease_expires_at = LEAST(now() + coalesce(NULL::int8, j.visibility_timeout_ms) * interval '1 millisecond',
                                now() + j.timeout_ms * interval '1 millisecond')
FROM next WHERE j.id = next.id
RETURNING next.ord, $LEAN)
SELECT $1 FROM c \gset
SQL
}

# The ACK arguments: ids, result, worker (the parallel arrays COMPLETE binds)
ack_args() { # IDS-VAR
  echo "unnest(:$1::uuid[], array_fill('{\"sent\": true}'::text, ARRAY[cardinality(:$1::uuid[])]),
            array_fill('w' || :client_id::text, ARRAY[cardinality(:$1::uuid[])])) AS a(id, result, worker)"
}

complete_sql() { # IDS-VAR  (old, b)
  cat <<SQL
UPDATE jobs j SET state = 'completed', completed_at = now(), result = a.result::jsonb, error = NULL,
       lease_expires_at = NULL, execution_deadline = NULL
FROM $(ack_args "$1")
WHERE j.id = a.id AND j.state = 'active' AND j.lease_expires_at > now()
  AND (a.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = a.worker)
RETURNING j.id, j.type, j.queue, j.attempt, j.started_at;
SQL
}

COLS="id, type, queue, args, meta, extensions, priority, tags, state, attempt, snoozes, max_attempts, retry_policy,
      error, errors, run, result, timeout_ms, visibility_timeout_ms, run_at, scheduled_at, expires_at, retry_delay_ms,
      dead_letter, created_at, enqueued_at, started_at, completed_at, cancelled_at, discarded_at, lease_owner,
      lease_expires_at, execution_deadline, lease_renewed_at"
move_sql() { # IDS-VAR  (a: same guard as COMPLETE, the row moves to jobs_history as completed)
  cat <<SQL
WITH done AS (
    DELETE FROM jobs j USING $(ack_args "$1")
    WHERE j.id = a.id AND j.state = 'active' AND j.lease_expires_at > now()
      AND (a.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = a.worker)
    RETURNING j.*, a.result AS ack_result)
INSERT INTO jobs_history ($COLS)
SELECT id, type, queue, args, meta, extensions, priority, tags, 'completed', attempt, snoozes, max_attempts,
       retry_policy, NULL, errors, run, ack_result::jsonb, timeout_ms, visibility_timeout_ms, run_at, scheduled_at,
       expires_at, retry_delay_ms, dead_letter, created_at, enqueued_at, started_at, now(), cancelled_at,
       discarded_at, lease_owner, NULL, NULL, lease_renewed_at
FROM done
RETURNING id, type, queue, attempt, started_at;
SQL
}

# RECORD_FAILURES for the jobs on their first attempt: retryable, due at once (run_at an hour back, as if the
# backoff had passed, so the next claims take them before the fresh jobs), the error appended (newest 10 kept).
fail_sql() {
  local n="ARRAY[cardinality(:fail_ids::uuid[])]"
  cat <<SQL
UPDATE jobs j SET state = f.state, run_at = f.run_at, retry_delay_ms = f.delay_ms,
       error = f.entry::jsonb,
       errors = jsonb_path_query_array(j.errors || f.entry::jsonb, '\$[last - \$k to last]',
                                       jsonb_build_object('k', 10 - 1)),
       dead_letter = f.dead_letter,
       discarded_at = CASE WHEN f.state = 'discarded' THEN f.at ELSE j.discarded_at END,
       completed_at = CASE WHEN f.state = 'discarded' THEN f.at ELSE j.completed_at END,
       lease_expires_at = NULL, execution_deadline = NULL
FROM unnest(:fail_ids::uuid[], array_fill(1, $n), array_fill('w' || :client_id::text, $n),
            array_fill('retryable'::text, $n), array_fill(now() - interval '1 hour', $n), array_fill(1000::int8, $n),
            array_fill(bench_error_entry(), $n),
            array_fill(false, $n), array_fill(now(), $n))
     AS f(id, attempt, worker, state, run_at, delay_ms, entry, dead_letter, at)
WHERE j.id = f.id AND j.state = 'active' AND j.attempt = f.attempt AND j.lease_expires_at > now()
  AND (f.worker IS NULL OR j.lease_owner IS NULL OR j.lease_owner = f.worker)
RETURNING $LEAN;
SQL
}

for s in old b a; do
  ack=complete_sql; [ "$s" = a ] && ack=move_sql
  { echo "-- cycle ($s): claim $BATCH, then ACK them: two transactions"
    claim_sql "coalesce(array_agg(id), '{}')::text AS ids"
    $ack ids; } >"$W/cycle_$s.sql"
  { echo "-- fail-retry ($s): claim $BATCH; first attempts fail (retryable, due), later attempts are ACKed"
    claim_sql "coalesce(array_agg(id) FILTER (WHERE attempt = 1), '{}')::text AS fail_ids,
       coalesce(array_agg(id) FILTER (WHERE attempt > 1), '{}')::text AS ok_ids"
    fail_sql
    $ack ok_ids; } >"$W/fail_$s.sql"
  { echo "-- bulk-insert ($s): one INSERT of $BULK_ROWS jobs a transaction"
    insert_sql "$BULK_ROWS"; } >"$W/bulk_$s.sql"
done
insert_sql ":n" >"$W/prefill.sql"

# ---------------------------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------------------------

reset_db() { # SCHEMA PREFILL
  local db t
  db=$(db_of "$1"); t=jobs; [ "$1" = a ] && t="jobs, jobs_history"
  q "$db" -c "TRUNCATE $t, queues, workers" -c "INSERT INTO queues (name, created_at) VALUES ('default', now())" >/dev/null
  [ "$2" -gt 0 ] && q "$db" -v n="$2" -f "$W/prefill.sql" >/dev/null
  q "$db" -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null
}

# CPU seconds used so far by the whole PostgreSQL instance: the postmaster and its live children (checkpointer,
# WAL writer, autovacuum, backends) plus the children it has reaped (cutime/cstime: the pgbench backends once they
# exit). The difference over a run is the server's CPU cost of that run, which the other processes on the machine
# stretch much less than they stretch the wall-clock rate.
PM_PID=$(q postgres -c "select pid from pg_stat_activity where backend_type = 'checkpointer'" | { read -r p; awk '{print $4}' "/proc/$p/stat"; })
pg_cpu() {
  python3 - "$PM_PID" <<'PY'
import os, sys
pm, hz, total = sys.argv[1], os.sysconf('SC_CLK_TCK'), 0
def fields(pid):
    with open(f'/proc/{pid}/stat') as f:
        return f.read().rsplit(')', 1)[1].split()   # fields from 3 (state) on
f = fields(pm); total += sum(int(x) for x in f[11:15])   # utime stime cutime cstime
for pid in os.listdir('/proc'):
    if pid.isdigit() and pid != pm:
        try:
            f = fields(pid)
        except OSError:
            continue
        if f[1] == pm:
            total += int(f[11]) + int(f[12])
print(total / hz)
PY
}

LOADAVG=
wait_load() { # waits up to LOAD_WAIT s for the 1-min load average < LOAD_MAX; sets LOADAVG="l1 l5 l15"
  local t0=$SECONDS l1 l5 l15
  while :; do
    read -r l1 l5 l15 _ </proc/loadavg
    python3 -c "import sys; sys.exit(0 if $l1 < $LOAD_MAX else 1)" && break
    [ $((SECONDS - t0)) -ge "$LOAD_WAIT" ] && break
    sleep 2
  done
  LOADAVG="$l1 $l5 $l15"
  log "  uptime: $(uptime) (waited $((SECONDS - t0)) s for load < $LOAD_MAX)"
}

sizes_of() { # SCHEMA -> "jobs heap/idx kB; jobs_history heap/idx kB"
  q "$(db_of "$1")" -c "select string_agg(relname || ':' || pg_table_size(oid) / 1024 || '/' || pg_indexes_size(oid) / 1024,
                                 ' ' order by relname)
                         from pg_class where relname in ('jobs', 'jobs_history') and relkind = 'r'"
}

run_one() { # WORKLOAD SCHEMA RUN
  local w=$1 s=$2 r=$3 cpu0 cpu1 db script clients secs prefill lsn0 lsn1 logf rc=0 tx tps secs_run jobs left wal ex sz
  db=$(db_of "$s")
  case $w in
    cycle) script=$W/cycle_$s.sql; clients=$CYCLE_CLIENTS; secs=$CYCLE_SECONDS; prefill=$CYCLE_PREFILL ;;
    bulk-insert) script=$W/bulk_$s.sql; clients=$BULK_CLIENTS; secs=$BULK_SECONDS; prefill=0 ;;
    fail-retry) script=$W/fail_$s.sql; clients=$FAIL_CLIENTS; secs=$FAIL_SECONDS; prefill=$FAIL_PREFILL ;;
  esac
  reset_db "$s" "$prefill"
  wait_load
  logf=$OUT/$w-$s-$r.log
  lsn0=$(q "$db" -c "select pg_current_wal_lsn()")
  cpu0=$(pg_cpu)
  timeout -k 5 $((secs + 60)) "$PGBIN/pgbench" -h "$HOST" -p "$PORT" -U postgres -n -M prepared -c "$clients" \
    -j "$clients" -T "$secs" -f "$script" "$db" >"$logf" 2>&1 || rc=$?
  sleep 0.5   # lets the postmaster reap the exited backends, so their CPU is in its cutime
  cpu1=$(pg_cpu)
  lsn1=$(q "$db" -c "select pg_current_wal_lsn()")
  [ "$rc" -eq 0 ] || { log "  pgbench exited $rc:"; tail -5 "$logf" | sed 's/^/    /'; }
  tx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$logf")
  tps=$(sed -n 's/^tps = \([0-9.]*\) (without initial connection time)/\1/p' "$logf")
  secs_run=$(python3 -c "print(round(${tx:-0} / ${tps:-0}, 3) if ${tps:-0} else $secs)")
  case $w in
    cycle|fail-retry)
      if [ "$s" = a ]; then jobs=$(q "$db" -c "select count(*) from jobs_history where state = 'completed'")
      else jobs=$(q "$db" -c "select count(*) from jobs where state = 'completed'"); fi
      left=$(q "$db" -c "select count(*) from jobs where state in ('available', 'retryable')")
      ex=$([ "$left" -lt $((clients * BATCH)) ] && echo EXHAUSTED || echo -) ;;
    bulk-insert) jobs=$(q "$db" -c "select count(*) from jobs"); left=-; ex=- ;;
  esac
  [ "$rc" -eq 0 ] || ex="FAILED(pgbench-rc-$rc)"
  wal=$(q "$db" -c "select pg_wal_lsn_diff('$lsn1', '$lsn0')::bigint")
  sz=$(sizes_of "$s")
  local jps
  jps=$(python3 -c "print(round($jobs / $secs_run, 1) if $secs_run > 0 else 0)")
  local cpu
  cpu=$(python3 -c "print(round($cpu1 - $cpu0, 2))")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$s" "$r" "$jobs" "$secs_run" "$jps" "$wal" \
    $LOADAVG "$left" "$ex" "$sz" "$cpu" >>"$RAW"
  log "  $w/$s run $r: $jobs jobs in $secs_run s = $jps jobs/s, WAL $((wal / (jobs > 0 ? jobs : 1))) B/job, PostgreSQL CPU $cpu s, $left claimable left $ex, sizes (kB heap/idx) $sz"
}

T0=$SECONDS
SKIPPED=
log "settings: RUNS=$RUNS WORKLOADS='$WORKLOADS' SCHEMAS='$SCHEMAS' BATCH=$BATCH cycle ${CYCLE_CLIENTS}c/${CYCLE_SECONDS}s/prefill $CYCLE_PREFILL, bulk ${BULK_CLIENTS}c/${BULK_SECONDS}s/$BULK_ROWS rows, fail-retry ${FAIL_CLIENTS}c/${FAIL_SECONDS}s/prefill $FAIL_PREFILL; $(nproc) cores; $($PGBIN/pgbench --version)"
for s in $SCHEMAS; do create_schema "$s"; done
for w in $WORKLOADS; do
  for r in $(seq 1 "$RUNS"); do
    for s in $SCHEMAS; do
      if [ $((SECONDS - T0)) -ge "$MAX_SECONDS" ]; then
        log "SKIPPED $w/$s run $r: budget MAX_SECONDS=$MAX_SECONDS used up"; SKIPPED="$SKIPPED $w/$s/$r"; continue
      fi
      log "$w, run $r/$RUNS, schema $s"
      run_one "$w" "$s" "$r"
    done
  done
done
log "all runs done in $((SECONDS - T0)) s"

if [ "$KEEP_DBS" = 0 ]; then
  for s in $SCHEMAS; do "${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS $(db_of "$s") WITH (FORCE)" >/dev/null; done
fi

# ---------------------------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------------------------
python3 - "$RAW" "$SCHEMAS" >"$OUT/table.md" <<'PY'
import csv, statistics, sys
raw, schemas = sys.argv[1], sys.argv[2].split()
rows = list(csv.DictReader(open(raw), delimiter='\t'))
desc = {'old': 'old (V1-V4, 16 full indexes)', 'b': 'b (V5: cold-partial console indexes)',
        'a': 'a (hot table + jobs_history)'}
def kb(x): return f'{int(x) / 1024:.1f}'
out = ['| workload | schema | jobs/s median | min-max | vs b | PG CPU µs/job median (min-max) | vs b | WAL B/job | load avg (1 min) before runs | heap MB / index MB after last run (jobs; jobs_history for a) | flags |',
       '|---|---|---:|---|---:|---|---:|---:|---|---|---|']
workloads = list(dict.fromkeys(r['workload'] for r in rows))
for w in workloads:
    med, cmed = {}, {}
    def us(r): return float(r['pg_cpu_s']) * 1e6 / max(1, int(r['jobs']))
    for s in schemas:
        rs = [r for r in rows if r['workload'] == w and r['schema'] == s]
        if rs:
            med[s] = statistics.median(float(r['jobs_per_s']) for r in rs)
            cmed[s] = statistics.median(us(r) for r in rs)
    for s in schemas:
        rs = [r for r in rows if r['workload'] == w and r['schema'] == s]
        if not rs: continue
        v = [float(r['jobs_per_s']) for r in rs]
        wal = statistics.median(int(r['wal_bytes']) / max(1, int(r['jobs'])) for r in rs)
        loads = ', '.join(r['load1'] for r in rs)
        sizes = []
        for part in rs[-1]['sizes'].split():
            name, hi = part.split(':'); h, i = hi.split('/')
            sizes.append(f'{name} {kb(h)} / {kb(i)}')
        rel = f"{med[s] / med['b'] * 100 - 100:+.0f}%" if 'b' in med and med['b'] else ''
        cu = [us(r) for r in rs]
        crel = f"{cmed[s] / cmed['b'] * 100 - 100:+.0f}%" if 'b' in cmed and cmed['b'] else ''
        flags = ' '.join(sorted({r['exhausted'] for r in rs} - {'-'}))
        out.append(f"| {w} | {desc[s]} | {statistics.median(v):,.0f} | {min(v):,.0f}-{max(v):,.0f} | {rel} | "
                   f"{statistics.median(cu):,.0f} ({min(cu):,.0f}-{max(cu):,.0f}) | {crel} | {wal:,.0f} | {loads} | {'; '.join(sizes)} | {flags} |")
print('\n'.join(out))
PY
echo
echo "### Lean write path: old vs b vs a (raw SQL, pgbench; $(date -u +%Y-%m-%dT%H:%MZ); runs per cell: $RUNS, alternating)"
echo
cat "$OUT/table.md"
echo
[ -z "$SKIPPED" ] || echo "skipped (budget):$SKIPPED"
echo "raw: $RAW; pgbench logs and scripts: $OUT"
exit 0
