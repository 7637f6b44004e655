#!/usr/bin/env bash
# What a second, idle instance on the same database costs the first: for each server jar of JARS (default: this
# checkout's build), each workload of WORKLOADS runs against a first instance with a second one started beside it
# (no client talks to the second), and then, with the last jar only, against the first instance alone. ROUNDS
# rounds, jars alternated within a round; a fresh database of the peers' PostgreSQL cluster for every run
# (bash ../shared/peers-bench/pg.sh start; 127.0.0.1:55433), the default JVM, authentication off, a warm-up of
# every workload first (WARMUP_ARGS, not counted) and the load tool warmed (bench --client-warmup on).
# Build first: ./mvnw -B -q package -DskipTests && ./mvnw -B -q -f tools/pom.xml package
# Prints one line per run: jobs/s, the first instance's CPU in the timed window (bench --server-pid: cores, and
# microseconds a job), and the second instance's CPU over the whole bench process (its warm-up runs included).
# Usage: ROUNDS=3 JARS="/tmp/old/quarkus-run.jar target/quarkus-app/quarkus-run.jar" scripts/bench-second-instance.sh
set -euo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
JARS=${JARS:-$ROOT/target/quarkus-app/quarkus-run.jar}
TOOLS=$ROOT/tools/target/steadfast-tools.jar
ROUNDS=${ROUNDS:-3} PORT=${PORT:-18340} DB=${DB:-sf_second}
WORKLOADS=${WORKLOADS:-"w1-bulk:100000 w2-batch:100000 w2:40000"}
WARMUP_ARGS=${WARMUP_ARGS:-"--workload w1-bulk,w2,w2-batch --jobs 10000 --warmup 2000"}
OUT=${OUT:-/tmp/steadfast-second-instance}; mkdir -p "$OUT"; : > "$OUT/results.txt"
PSQL=("$(ls /usr/lib/postgresql/*/bin/psql | tail -n 1)" -h 127.0.0.1 -p 55433 -U postgres)
u=postgresql://127.0.0.1:55433/$DB
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT

start() { # JAR PORT LOG: starts an instance, prints its pid once it answers
  QUARKUS_DATASOURCE_REACTIVE_URL=$u QUARKUS_DATASOURCE_JDBC_URL=jdbc:$u QUARKUS_DATASOURCE_USERNAME=postgres \
  QUARKUS_DATASOURCE_PASSWORD=postgres QUARKUS_HTTP_PORT=$2 STEADFAST_AUTH_ENABLED=false \
    java -jar "$1" >"$3" 2>&1 &
  local pid=$!
  for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$2/ojs/v1/health" && break; sleep 0.1; done
  echo "$pid"
}

stop() { # PID...: SIGTERM, then wait until each is gone (the graceful shutdown takes a few seconds)
  for p in "$@"; do kill "$p" 2>/dev/null || true; done
  for p in "$@"; do while kill -0 "$p" 2>/dev/null; do sleep 0.2; done; done
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run() { # JAR TAG WORKLOAD JOBS SECOND(0|1)
  local jar=$1 tag=$2 w=$3 jobs=$4 second=$5 first other=0 t0 t1
  PGOPTIONS="-c client_min_messages=warning" PGPASSWORD=postgres "${PSQL[@]}" -d postgres -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
  first=$(start "$jar" "$PORT" "$OUT/$tag-first.log"); pids=("$first")
  if [ "$second" = 1 ]; then other=$(start "$jar" $((PORT + 1)) "$OUT/$tag-second.log"); pids+=("$other"); fi
  # shellcheck disable=SC2086
  java -jar "$TOOLS" bench --url "http://127.0.0.1:$PORT" $WARMUP_ARGS > "$OUT/$tag-warmup.log" 2>&1
  [ "$other" != 0 ] && t0=$(cpu_ticks "$other")
  java -jar "$TOOLS" bench --url "http://127.0.0.1:$PORT" --workload "$w" --jobs "$jobs" --warmup 0 \
    --client-warmup on --server-pid "$first" > "$OUT/$tag.log" 2>&1
  [ "$other" != 0 ] && t1=$(cpu_ticks "$other")
  local result; result=$(grep '^RESULT' "$OUT/$tag.log" | tail -1)
  echo "RESULT tag=$tag ${result#RESULT }" >> "$OUT/results.txt"
  python3 - "$tag" "$result" "$([ "$other" != 0 ] && echo $(( (t1 - t0) * 10 )) || echo -)" <<'EOF'
import json, sys
tag, line, second = sys.argv[1], sys.argv[2], sys.argv[3]
r = json.loads(line[len("RESULT "):])
cores = r.get("server_cores")
us = cores * 1e6 / r["jobs_per_s"] if cores else float("nan")
print(f"{tag}: {r['jobs_per_s']:,.0f} jobs/s, lost {r['lost']}, duplicates {r['duplicates']}, failed {r['failed_requests']}; "
      f"first instance {cores} cores = {us:.1f} us a job; second instance {second} ms of CPU over the bench process")
EOF
  stop "${pids[@]}"; pids=()
}

echo "jars: $JARS; workloads: $WORKLOADS; $ROUNDS rounds"
for r in $(seq 1 "$ROUNDS"); do
  for wj in $WORKLOADS; do
    w=${wj%%:*} jobs=${wj##*:} i=0
    for jar in $JARS; do
      run "$jar" "r$r-$w-jar$i-two" "$w" "$jobs" 1
      i=$((i + 1))
    done
    run "${JARS##* }" "r$r-$w-jar$((i - 1))-alone" "$w" "$jobs" 0
  done
done
