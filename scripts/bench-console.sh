#!/usr/bin/env bash
# Every console page timed at 1,000,000 jobs of history: a fresh database of the peers' PostgreSQL cluster
# (bash ../shared/peers-bench/pg.sh start; 127.0.0.1:55433), migrated by the packaged server, seeded with
# scripts/seed-jobs.sql while no server runs (the seed rebuilds indexes; a running server's search indexer would
# deadlock with it), the server again with the shipped memory settings, authentication and console login off; once
# its search indexer has built every closed day's indexes (none being built for 20 s) a VACUUM ANALYZE, then
# `console-timing --n 20` (20 requests per page after 3 warm-ups). Prints the table; the server's log goes to $OUT.
# Build first: ./mvnw -B -q package -DskipTests && ./mvnw -B -q -f tools/pom.xml package
# Usage: ROWS=1000000 scripts/bench-console.sh
set -euo pipefail
ROOT=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib/seeded-history.sh
. "$ROOT/scripts/lib/seeded-history.sh"
ROWS=${ROWS:-1000000} PORT=${PORT:-18095} DB=${DB:-sf_console} OUT=${OUT:-/tmp/steadfast-console}
JAVA_OPTS=${JAVA_OPTS:-"-Xmx56m -XX:+UseSerialGC -XX:ReservedCodeCacheSize=32m -Xss512k -XX:TrimNativeHeapInterval=2000"}
export MALLOC_ARENA_MAX=2 PGPASSWORD=postgres
mkdir -p "$OUT"; : > "$OUT/server.log"
PSQL_BIN=$(ls /usr/lib/postgresql/*/bin/psql | tail -n 1)
PSQL=("$PSQL_BIN" -h 127.0.0.1 -p 55433 -U postgres -X -q)
URL=postgresql://127.0.0.1:55433/$DB
pid=
start() {
  QUARKUS_DATASOURCE_REACTIVE_URL=$URL QUARKUS_DATASOURCE_JDBC_URL=jdbc:$URL QUARKUS_DATASOURCE_USERNAME=postgres \
  QUARKUS_DATASOURCE_PASSWORD=postgres QUARKUS_HTTP_PORT=$PORT STEADFAST_AUTH_ENABLED=false \
  STEADFAST_CONSOLE_AUTH_ENABLED=false java $JAVA_OPTS -jar "$ROOT/target/quarkus-app/quarkus-run.jar" >>"$OUT/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 600); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/ojs/v1/health" && return 0; sleep 0.1; done
  echo "bench-console: no healthy server after 60 s (see $OUT/server.log)" >&2; exit 2
}
stop() { [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=; }; }
trap stop EXIT
"${PSQL[@]}" -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
start; stop
t0=$(date +%s)
seed_jobs "$PSQL_BIN" "postgresql://postgres@127.0.0.1:55433/$DB" "$ROWS" "$OUT/seed.log" \
  || { echo "bench-console: the seed failed (see $OUT/seed.log)" >&2; exit 2; }
echo "seeded $ROWS jobs in $(( $(date +%s) - t0 )) s"
start
waited=$(await_search_indexes 3600 "${PSQL[@]}" -d "$DB") \
  || { echo "bench-console: search indexes still being built after an hour" >&2; exit 2; }
echo "search indexes built: none being built for 20 s, $waited s after the restart"
"${PSQL[@]}" -d "$DB" -c "VACUUM ANALYZE"
"${PSQL[@]}" -d "$DB" -At -c "select 'live ' || (select count(*) from jobs) || ', history ' ||
  (select count(*) from job_history) || ', dead letters ' || (select count(*) from job_history where dead_letter)"
java -jar "$ROOT/tools/target/steadfast-tools.jar" console-timing --url "http://127.0.0.1:$PORT" --n 20
stop
echo "server ERROR lines: $(grep -c '"level":"ERROR"' "$OUT/server.log" || true)"
