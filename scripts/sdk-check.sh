#!/usr/bin/env bash
# Runs the official OJS SDKs against the packaged jar: scripts/sdk/check.mjs (JavaScript SDK: chain, group and
# batch workflows, a worker, progress through the SDK's route, queue and job event subscriptions, a unique job and
# its duplicate refused, a thrown handler error recorded as HandlerError) and scripts/sdk/SdkCheck.java (Java SDK:
# chain, group and batch in the SDK's depends_on shape, enqueue, a unique job and its duplicate refused, a worker).
# --js-grpc runs scripts/sdk/check-grpc.mjs: the JavaScript SDK's GrpcTransport (OJS over gRPC on the HTTP port,
# protos from src/main/proto) under a producer (OJSClient) and a worker (OJSWorker) that complete jobs, retry a job
# whose handler throws once, and dead-letter one whose handler always throws (max_attempts 2).
# Both run a durable handler that saves a checkpoint, fails, and resumes from it on the next attempt; the Java SDK's
# DurableJobHandler sends its checkpoint requests without the worker's token, so that part runs against a second
# server without authentication (port + 1; docs/reference/protocol-notes.md, "Durable execution").
# Each prints PASS/FAIL lines and "RESULT passed=N failed=M"; the script then counts ERROR lines in the server log.
# Not part of the test suite or CI: the SDKs are not published to a registry this build can reach. Build them
# outside this checkout first:
#   JavaScript: git clone https://github.com/openjobspec/ojs-js-sdk && cd ojs-js-sdk && npm ci && npx tsc -p tsconfig.json
#     (for --js-grpc also its optional peer dependencies: npm install --no-save @grpc/grpc-js @grpc/proto-loader)
#   Java (JDK 21+): git clone https://github.com/openjobspec/ojs-java-sdk && cd ojs-java-sdk &&
#     mvn -q -Dmaven.test.skip=true package && mvn -q dependency:build-classpath -Dmdep.outputFile=cp.txt
# Usage: scripts/sdk-check.sh [--js DIR] [--js-grpc DIR] [--java DIR] [--java-home JDK21+] [--port 18310]
#   (build the jar first: ./mvnw -B -q package -DskipTests; the local cluster of scripts/local-pg is used)
set -euo pipefail
cd "$(dirname "$0")/.."
js='' jsgrpc='' java_dir='' jhome=${JAVA_HOME:-} port=18310
while [ $# -gt 0 ]; do
  case "$1" in
    --js) js=$2; shift 2 ;;
    --js-grpc) jsgrpc=$2; shift 2 ;;
    --java) java_dir=$2; shift 2 ;;
    --java-home) jhome=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    *) echo "sdk-check: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$js$jsgrpc$java_dir" ] || { echo "sdk-check: give --js, --js-grpc and/or --java" >&2; exit 2; }
[ -f target/quarkus-app/quarkus-run.jar ] || { echo "sdk-check: build the jar first" >&2; exit 2; }
url=$(scripts/local-pg start --db sdkcheck); hp=${url#*@}; hp=${hp%%/*}
token=$(python3 -c 'import secrets; print("stf_" + secrets.token_urlsafe(32))')
hash=$(printf '%s' "$token" | sha256sum | cut -d' ' -f1)
log=target/sdk-check-server.log
STEADFAST_AUTH_TOKENS_SDK="admin:sha256:$hash" QUARKUS_HTTP_PORT=$port \
QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://$hp/sdkcheck" QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$hp/sdkcheck" \
QUARKUS_DATASOURCE_USERNAME=steadfast QUARKUS_DATASOURCE_PASSWORD=steadfast \
  java -jar target/quarkus-app/quarkus-run.jar > "$log" 2>&1 &
pid=$!
open_pid=''
trap 'kill $pid $open_pid 2>/dev/null || true' EXIT
if [ -n "$java_dir" ]; then
  STEADFAST_AUTH_ENABLED=false QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=$((port + 1)) \
  QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://$hp/sdkcheck" QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://$hp/sdkcheck" \
  QUARKUS_DATASOURCE_USERNAME=steadfast QUARKUS_DATASOURCE_PASSWORD=steadfast \
    java -jar target/quarkus-app/quarkus-run.jar > target/sdk-check-open-server.log 2>&1 &
  open_pid=$!
fi
for _ in $(seq 90); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 1; done
[ -z "$open_pid" ] || for _ in $(seq 90); do curl -sf "http://127.0.0.1:$((port + 1))/health" >/dev/null && break; sleep 1; done
rc=0
if [ -n "$js" ]; then
  echo "sdk-check: JavaScript SDK ($js)"
  OJS_JS_SDK=$(cd "$js" && pwd) node scripts/sdk/check.mjs "http://127.0.0.1:$port" "$token" || rc=1
fi
if [ -n "$jsgrpc" ]; then
  echo "sdk-check: JavaScript SDK over gRPC ($jsgrpc)"
  OJS_JS_SDK=$(cd "$jsgrpc" && pwd) node scripts/sdk/check-grpc.mjs "127.0.0.1:$port" "$token" "$(pwd)/src/main/proto" || rc=1
fi
if [ -n "$java_dir" ]; then
  echo "sdk-check: Java SDK ($java_dir)"
  jbin=${jhome:+$jhome/bin/}
  cp="$(ls "$java_dir"/target/ojs-sdk-*.jar | grep -v -e sources -e javadoc | head -1):$(cat "$java_dir/cp.txt")"
  out=target/sdk-check-classes
  mkdir -p "$out"
  "${jbin}javac" -d "$out" -cp "$cp" scripts/sdk/SdkCheck.java
  "${jbin}java" -Djava.util.logging.config.file=/dev/null -cp "$out:$cp" SdkCheck "http://127.0.0.1:$port" "$token" \
    "http://127.0.0.1:$((port + 1))" || rc=1
fi
kill $pid $open_pid 2>/dev/null; wait $pid $open_pid 2>/dev/null || true
echo "sdk-check: server ERROR lines: $(cat "$log" target/sdk-check-open-server.log 2>/dev/null | grep -c ERROR || true)"
exit $rc
