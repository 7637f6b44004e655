#!/usr/bin/env bash
# The OJS conformance cases of levels 0-4 replayed over gRPC: the tools jar's grpc-proxy answers each HTTP request of
# the conformance runner by calling its RPC on a running server (docs/reference/grpc.md, "Conformance over gRPC"),
# and the run is held against the checked-in list of cases that do not apply over gRPC
# (docs/reference/grpc-replay-not-applicable.tsv: test id, case name, step, assertion, kind, reason). Fails (exit 1) when an
# assertion not on the list fails, and when a listed one holds (the list must stay true); 2 on a usage or start-up
# problem.
# Needs: tools/target/steadfast-tools.jar (./mvnw -B -q -f tools/pom.xml package), the suite at
# ../shared/ojs/conformance (or $CONFORMANCE), a server with the reset hook on (STEADFAST_ADMIN_RESET_ENABLED=true)
# and STEADFAST_WORKERS_TEST_DIRECTIVES=true, as for the HTTP run.
# Usage: scripts/grpc-replay.sh --url http://127.0.0.1:8080 [--token T] [--listen PORT] [--out DIR] [-- RUNNER ARGS]
#   RUNNER ARGS go to the runner as they are, e.g. -- --skip L2-CRON-004 L2-CRON-005
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
conformance=${CONFORMANCE:-$root/../shared/ojs/conformance/run}
list=$root/docs/reference/grpc-replay-not-applicable.tsv
tools=$root/tools/target/steadfast-tools.jar
url="" token="" listen=0 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --url) url=$2; shift 2 ;;
    --token) token=$2; shift 2 ;;
    --listen) listen=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 --url http://127.0.0.1:PORT [--token T] [--listen PORT] [--out DIR] [-- RUNNER ARGS]" >&2; exit 2 ;;
  esac
done
[ -n "$url" ] || { echo "grpc-replay: --url is required" >&2; exit 2; }
[ -f "$tools" ] || { echo "grpc-replay: $tools not built (./mvnw -B -q -f tools/pom.xml package)" >&2; exit 2; }
[ -f "$conformance" ] || { echo "grpc-replay: no conformance runner at $conformance (set CONFORMANCE)" >&2; exit 2; }
[ "$listen" != 0 ] || listen=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
out=${out:-$(mktemp -d /tmp/steadfast-grpc-replay.XXXXXX)}
mkdir -p "$out"

proxy_args=(grpc-proxy --url "$url" --listen "$listen")
[ -z "$token" ] || proxy_args+=(--token "$token")
java -jar "$tools" "${proxy_args[@]}" >"$out/proxy.log" 2>&1 &
proxy=$!
trap 'kill $proxy 2>/dev/null || true; wait $proxy 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  grep -q 'listening on' "$out/proxy.log" 2>/dev/null && break
  kill -0 $proxy 2>/dev/null || { echo "grpc-replay: the proxy did not start:"; cat "$out/proxy.log"; exit 2; }
  sleep 0.1
done
head -n 1 "$out/proxy.log"

runner=(python3 "$conformance" --url "http://127.0.0.1:$listen" --reset-url /ojs/v1/admin/reset
  --level 4 --category 'level-[0-4]-*' --keep-going --json "$out/report.json")
[ -z "$token" ] || runner+=(--header "Authorization: Bearer $token")
start=$(date +%s)
rc=0
"${runner[@]}" "$@" >"$out/runner.log" 2>&1 || rc=$?
if [ $rc -gt 1 ] || [ ! -f "$out/report.json" ]; then
  echo "grpc-replay: the runner did not run (exit $rc):"; tail -n 20 "$out/runner.log"; exit 2
fi
echo "grpc-replay: the runner took $(( $(date +%s) - start )) s; its output: $out/runner.log, the proxy's: $out/proxy.log"

# The report against the list, assertion by assertion (the runner keeps going after a failed step, so every step
# of every case is replayed): a case passes when it has no failure, or when each of its failures is listed with
# its reason; a failure not listed fails the replay, and so does a listed assertion that held (take it off). A
# case listed with step and assertion "*" (kind "timing") may fail anywhere or pass: its outcome depends on time.
python3 - "$out/report.json" "$list" <<'PY'
import json, sys
report, listed, anywhere = json.load(open(sys.argv[1])), {}, set()
for line in open(sys.argv[2], encoding="utf-8"):
    if line.strip() and not line.startswith("#"):
        test_id, name, step, field, kind, reason = line.rstrip("\n").split("\t")
        if step == "*":
            anywhere.add((test_id, name))
        else:
            listed[(test_id, name, step, field)] = (kind, reason)
tests = {(t["test_id"], t["name"]): t for t in report["tests"]}
failed = {k + (f.get("step_id"), f.get("field")): f for k, t in tests.items() for f in t["failures"]}
unexpected = sorted(k for k in failed if k not in listed and k[:2] not in anywhere)
held = sorted(k for k in listed if k[:2] in tests and tests[k[:2]]["status"] != "skip" and k not in failed)
unknown = sorted(k for k in list(listed) + [c + ("*", "*") for c in anywhere] if k[:2] not in tests)
bad = {k[:2] for k in unexpected}
count = lambda pred: sum(1 for k, t in tests.items() if pred(k, t))
print("grpc-replay: %d cases: %d passed, %d passed but for listed not-applicable assertions, %d failed, %d skipped"
      % (len(tests), count(lambda k, t: t["status"] == "pass"),
         count(lambda k, t: t["status"] in ("fail", "error") and k not in bad), len(bad),
         count(lambda k, t: t["status"] == "skip")))
print("grpc-replay: %d assertions failed, %d of them listed as not applicable over gRPC (%d entries, %d of them"
      " whole cases that depend on time, in %s)" % (len(failed), len(failed) - len(unexpected),
      len(listed) + len(anywhere), len(anywhere), sys.argv[2].rsplit("/", 1)[-1]))
for k in unexpected:
    f = failed[k]
    print("  FAILED, not listed: %s %s step %s %s: %s" % (k + (f.get("message", ""),)))
for k in held:
    print("  HELD, but listed as not applicable (take it off the list): %s %s step %s %s" % k)
for k in unknown:
    print("  listed, but no such case was run: %s %s step %s %s" % k)
sys.exit(1 if unexpected or held or unknown else 0)
PY
