# Shared by scripts/bench-peers.sh and scripts/bench-console.sh (sourced, not run): a database with history, seeded
# by scripts/seed-jobs.sql and with the closed days' search indexes built, the state a server that ran those days
# would have.

SEED_JOBS_SQL=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/seed-jobs.sql

# seed_jobs PSQL_BIN URL ROWS LOGFILE [TIMEOUT_S]: seeds ROWS jobs (mostly finished, some waiting, in eight other
# queues) into the database at URL, which a server has migrated. No server may run on it meanwhile: the seed drops
# and rebuilds indexes in long statements, and a running server's search indexer (CREATE INDEX CONCURRENTLY on
# closed days) deadlocked with it. Fails when psql fails or TIMEOUT_S (default 3600) passes.
seed_jobs() {
  local psql=$1 url=$2 rows=$3 logf=$4 limit=${5:-3600}
  timeout -k 10 "$limit" "$psql" "$url" -X -q -v rows="$rows" -f "$SEED_JOBS_SQL" >"$logf" 2>&1
}

# await_search_indexes MAX_S PSQL_COMMAND...: after a server's restart on a seeded database its search indexer (which
# starts 10 s after start-up and goes from one partition to the next at once) builds every closed day's indexes;
# waits at least 30 s, then until none has been in progress for 20 s (PSQL_COMMAND, connected to the database, is
# asked for pg_stat_progress_create_index every second; an answer that fails counts as busy). Prints the seconds it
# waited; fails after MAX_S.
await_search_indexes() {
  local max=$1 n t0 quiet=0 building
  shift
  t0=$(date +%s)
  for n in $(seq 1 "$max"); do
    building=$("$@" -At -c "select count(*) from pg_stat_progress_create_index" 2>/dev/null) || building=
    if [ "$building" = 0 ]; then quiet=$((quiet + 1)); else quiet=0; fi
    if [ "$n" -ge 30 ] && [ "$quiet" -ge 20 ]; then
      echo $(( $(date +%s) - t0 ))
      return 0
    fi
    sleep 1
  done
  return 1
}
