#!/usr/bin/env bash
# W2 (8 workers, one ACK per job) over HTTP, unary gRPC (Fetch + Ack) and StreamJobs (max_concurrent 10, unary Ack)
# against one packaged server, in the same run: a warm-up of each, then ROUNDS rounds of the three, JOBS jobs per run,
# on a fresh database of the peers' PostgreSQL cluster (bash ../shared/peers-bench/pg.sh start; 127.0.0.1:55433),
# with the shipped memory settings and authentication off, as scripts/bench-peers.sh runs Steadfast.
# Build first: ./mvnw -B -q package -DskipTests && ./mvnw -B -q -f tools/pom.xml package
# Prints one line per run; the RESULT records (with server_cores and client_cores) go to $OUT/results.txt.
# Each timed run first runs its transport's W2 untimed until the tool's JIT is quiet (bench --client-warmup;
# CLIENT_WARMUP=off times a cold tool, as until 2026-11-30).
# Usage: ROUNDS=3 JOBS=20000 scripts/bench-grpc-w2.sh
set -euo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
JAR=$ROOT/target/quarkus-app/quarkus-run.jar
TOOLS=${TOOLS:-$ROOT/tools/target/steadfast-tools.jar}
ROUNDS=${ROUNDS:-3} JOBS=${JOBS:-20000} CLIENT_WARMUP=${CLIENT_WARMUP:-on} PORT=${PORT:-18330} DB=${DB:-sf_grpcw2}
OUT=${OUT:-/tmp/steadfast-grpc-w2}; mkdir -p "$OUT"; : > "$OUT/results.txt"
JAVA_OPTS=${JAVA_OPTS:-"-Xmx56m -XX:+UseSerialGC -XX:ReservedCodeCacheSize=32m -Xss512k -XX:TrimNativeHeapInterval=2000"}
export MALLOC_ARENA_MAX=2
PSQL=("$(ls /usr/lib/postgresql/*/bin/psql | tail -n 1)" -h 127.0.0.1 -p 55433 -U postgres)
PGPASSWORD=postgres "${PSQL[@]}" -d postgres -qc "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
u=postgresql://127.0.0.1:55433/$DB
QUARKUS_DATASOURCE_REACTIVE_URL=$u QUARKUS_DATASOURCE_JDBC_URL=jdbc:$u QUARKUS_DATASOURCE_USERNAME=postgres \
QUARKUS_DATASOURCE_PASSWORD=postgres QUARKUS_HTTP_PORT=$PORT STEADFAST_AUTH_ENABLED=false \
  java $JAVA_OPTS -jar "$JAR" >"$OUT/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/ojs/v1/health" && break; sleep 0.1; done
echo "server pid $pid ($(git -C "$ROOT" rev-parse --short HEAD)), JAVA_OPTS=$JAVA_OPTS"
for t in http grpc grpc-stream; do
  java -jar "$TOOLS" bench --url "http://127.0.0.1:$PORT" --workload w2 --transport $t --jobs 3000 --warmup 2000 \
    --server-pid $pid > "$OUT/warmup-$t.log" 2>&1
done
echo "warmed up (3,000 + 2,000 jobs per transport, not counted)"
for r in $(seq 1 "$ROUNDS"); do
  for t in http grpc grpc-stream; do
    java -jar "$TOOLS" bench --url "http://127.0.0.1:$PORT" --workload w2 --transport $t --jobs "$JOBS" --warmup 0 \
      --client-warmup "$CLIENT_WARMUP" --server-pid $pid > "$OUT/r$r-$t.log" 2>&1
    echo "round $r $t: $(grep -E '^w2' "$OUT/r$r-$t.log" | tail -1)"
    grep '^RESULT' "$OUT/r$r-$t.log" | sed "s/^RESULT /RESULT round=$r /" >> "$OUT/results.txt"
  done
done
grep -c ERROR "$OUT/server.log" | sed 's/^/server ERROR lines: /' || true
