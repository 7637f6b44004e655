#!/usr/bin/env python3
"""Webhook delivery under failures and a crash (docs/performance/webhooks.md): starts the packaged jar on its own
database, subscribes a receiver this script serves on 127.0.0.1 to job.enqueued in one queue, PUSHes --events jobs
(bulk, so --events events), and answers 500 to a random --fail-rate of the requests it receives. --kill-after
seconds after the last PUSH it SIGKILLs the server and starts it again on the same database. It then waits until
every event was answered 2xx at least once (or --timeout) and prints: requests, failed ones, events delivered,
events lost, duplicates (2xx answers beyond the first for a delivery id) and events that came under more than one
delivery id (must be 0), the time until the last event and the deliveries a second.

  ./mvnw -B -q package -DskipTests
  scripts/bench-webhooks.py --events 10000 --fail-rate 0.3 --kill-after 2

The server runs with steadfast.webhooks.retry-delays=PT1S (and 25 attempts): with the spec's table (30 s, 2 min,
10 min, ...) the last of 10,000 events failing 30% of the time would take hours, which measures the table, not the
delivery path. Exits 1 when an event was lost or came under two delivery ids.
"""
import argparse, collections, http.server, json, os, random, signal, socket, subprocess, sys, threading, time
import urllib.error, urllib.request

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--jar", default="target/quarkus-app/quarkus-run.jar")
p.add_argument("--events", type=int, default=10000)
p.add_argument("--fail-rate", type=float, default=0.3)
p.add_argument("--kill-after", type=float, default=2.0, help="seconds after the last PUSH; negative: no kill")
p.add_argument("--timeout", type=float, default=600)
p.add_argument("--seed", type=int, default=1)
a = p.parse_args()
rnd = random.Random(a.seed)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


lock = threading.Lock()
requests = 0
failed = 0
ok_by_delivery = collections.Counter()      # delivery id -> 2xx answers
deliveries_by_event = collections.defaultdict(set)  # event id -> delivery ids seen
delivered_events = set()
last_delivery = [0.0]


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        global requests, failed
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        delivery = self.headers.get("X-OJS-Delivery-ID")
        event = json.loads(body)["id"]
        with lock:
            requests += 1
            deliveries_by_event[event].add(delivery)
            fail = rnd.random() < a.fail_rate
            if fail:
                failed += 1
            else:
                ok_by_delivery[delivery] += 1
                delivered_events.add(event)
                last_delivery[0] = time.time()
        self.send_response(500 if fail else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 256  # the server opens up to steadfast.webhooks.batch-size connections at once


receiver = Server(("127.0.0.1", 0), Receiver)
threading.Thread(target=receiver.serve_forever, daemon=True).start()
hook = "http://127.0.0.1:%d/hook" % receiver.server_address[1]

db_url = subprocess.run(["scripts/local-pg", "start", "--db", "steadfast_bench_webhooks"], check=True,
                        capture_output=True, text=True).stdout.strip()
hostport = db_url.split("@", 1)[1].split("/", 1)[0]
port = free_port()
base = "http://127.0.0.1:%d" % port
env = dict(os.environ,
           QUARKUS_DATASOURCE_REACTIVE_URL="postgresql://%s/steadfast_bench_webhooks" % hostport,
           QUARKUS_DATASOURCE_JDBC_URL="jdbc:postgresql://%s/steadfast_bench_webhooks" % hostport,
           QUARKUS_DATASOURCE_USERNAME="steadfast", QUARKUS_DATASOURCE_PASSWORD="steadfast",
           QUARKUS_HTTP_PORT=str(port), STEADFAST_AUTH_ENABLED="false", STEADFAST_ADMIN_RESET_ENABLED="true",
           STEADFAST_WEBHOOKS_ALLOW_HTTP="true", STEADFAST_WEBHOOKS_ALLOWED_PRIVATE_RANGES="127.0.0.0/8",
           STEADFAST_WEBHOOKS_RETRY_DELAYS="PT1S", STEADFAST_WEBHOOKS_MAX_ATTEMPTS="25")
log = open("target/bench-webhooks-server.log", "a")


def start():
    proc = subprocess.Popen(["java", "-jar", a.jar], env=env, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(480):
        try:
            with urllib.request.urlopen(base + "/ojs/v1/health", timeout=2) as r:
                if r.status == 200:
                    return proc
        except Exception:
            pass
        if proc.poll() is not None:
            sys.exit("server died; see target/bench-webhooks-server.log")
        time.sleep(0.25)
    sys.exit("server did not become healthy")


def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read() or b"{}")


server = start()
try:
    call("POST", "/ojs/v1/admin/reset")
    sub = call("POST", "/ojs/v1/webhooks/subscriptions", {"url": hook, "events": ["job.enqueued"],
               "filter": {"queues": ["bench-webhooks"]}, "timeout_ms": 5000})["subscription"]["id"]
    t0 = time.time()
    for i in range(0, a.events, 500):
        n = min(500, a.events - i)
        call("POST", "/ojs/v1/jobs/bulk", {"jobs": [{"type": "bench.webhook", "args": [i + k],
                                                      "options": {"queue": "bench-webhooks"}} for k in range(n)]})
    pushed = time.time()
    print("pushed %d jobs in %.1f s" % (a.events, pushed - t0))
    if a.kill_after >= 0:
        time.sleep(a.kill_after)
        with lock:
            before = len(delivered_events)
        server.send_signal(signal.SIGKILL)
        server.wait()
        print("SIGKILL %.1f s after the last PUSH, %d events delivered by then; restarting" % (a.kill_after, before))
        server = start()
    deadline = time.time() + a.timeout
    while time.time() < deadline:
        with lock:
            if len(delivered_events) >= a.events:
                break
        time.sleep(0.5)
    with lock:
        duplicates = sum(c - 1 for c in ok_by_delivery.values() if c > 1)
        split = sum(1 for ds in deliveries_by_event.values() if len(ds) > 1)
        lost = a.events - len(delivered_events)
        took = last_delivery[0] - t0
        print("events %d, requests %d, failed %d (%.1f%%), delivered %d, lost %d, duplicates %d (same delivery id),"
              " events under two delivery ids %d" % (a.events, requests, failed, 100.0 * failed / max(requests, 1),
                                                     len(delivered_events), lost, duplicates, split))
        print("last event delivered %.1f s after the first PUSH: %.0f events a second (every retry 1 s later)"
              % (took, len(delivered_events) / max(took, 0.001)))
    state = call("GET", "/ojs/v1/webhooks/deliveries?subscription_id=%s&state=dead&limit=1" % sub)
    print("dead deliveries: %d" % len(state["deliveries"]))
    sys.exit(1 if lost or split else 0)
finally:
    server.send_signal(signal.SIGTERM)
    server.wait()
    receiver.shutdown()
