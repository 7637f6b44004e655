#!/usr/bin/env python3
"""Load for a failover check (docs/operations/failover.md): producers PUSH and workers FETCH and ACK through one
server for --seconds (fail the primary meanwhile), recording every answer with its time; then every job answered
201 is looked up on the database (--check-db, a libpq URL; several hosts with target_session_attrs=read-write find
the new primary) and every job whose ACK was answered 200 must be completed there. Prints the counts, the longest
gap between 2xx answers and the failed answers; exits 1 when an acknowledged job is missing or not completed.

  scripts/failover-load.py --url http://127.0.0.1:8080 --seconds 60 \
    --check-db 'postgresql://steadfast@127.0.0.1:5441,127.0.0.1:5442/steadfast?target_session_attrs=read-write'
"""
import argparse, collections, glob, json, subprocess, sys, threading, time, urllib.error, urllib.request

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--url", default="http://127.0.0.1:8080")
p.add_argument("--token", help="API token (Authorization: Bearer)")
p.add_argument("--seconds", type=float, default=60)
p.add_argument("--producers", type=int, default=8)
p.add_argument("--workers", type=int, default=4)
p.add_argument("--queue", default="failover-check")
p.add_argument("--check-db", required=True)
a = p.parse_args()

lock = threading.Lock()
answers, pushed, acked = [], [], []
stop = time.time() + a.seconds


def call(method, path, body):
    headers = {"Content-Type": "application/json"}
    if a.token:
        headers["Authorization"] = "Bearer " + a.token
    req = urllib.request.Request(a.url + path, method=method, data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, {}
    except Exception:
        return -1, {}  # no answer: connection refused or lost, timeout


def note(kind, status):
    with lock:
        answers.append((time.time(), kind, status))


def produce(n):
    i = 0
    while time.time() < stop:
        s, b = call("POST", "/ojs/v1/jobs", {"type": "failover.check", "args": [n, i], "options": {"queue": a.queue}})
        note("push", s)
        if s == 201:
            with lock:
                pushed.append(b["job"]["id"])
        else:
            time.sleep(0.05)
        i += 1


def work(n):
    worker = "failover-worker-%d" % n
    while time.time() < stop + 20:  # drain for up to 20 s after the producers stop
        s, b = call("POST", "/ojs/v1/workers/fetch", {"queues": [a.queue], "count": 10, "worker_id": worker})
        note("fetch", s)
        jobs = b.get("jobs", []) if s == 200 else []
        if not jobs:
            if time.time() > stop:
                return
            time.sleep(0.1)
            continue
        for j in jobs:
            s2, _ = call("POST", "/ojs/v1/workers/ack", {"job_id": j["id"], "worker_id": worker, "result": {}})
            note("ack", s2)
            if s2 == 200:
                with lock:
                    acked.append(j["id"])


def states(ids):
    psql = (sorted(glob.glob("/usr/lib/postgresql/*/bin/psql")) or ["psql"])[-1]
    out, ids = {}, list(ids)
    for k in range(0, len(ids), 500):
        sql = "SELECT id, state FROM all_jobs WHERE id = ANY('{%s}'::uuid[])" % ",".join(ids[k:k + 500])
        r = subprocess.run([psql, a.check_db, "-At", "-F", " ", "-c", sql], capture_output=True, text=True, check=True)
        out.update(line.split(" ") for line in r.stdout.splitlines() if line)
    return out


threads = [threading.Thread(target=produce, args=(n,)) for n in range(a.producers)]
threads += [threading.Thread(target=work, args=(n,)) for n in range(a.workers)]
for t in threads:
    t.start()
for t in threads:
    t.join()
found = states(set(pushed) | set(acked))
missing = [i for i in set(pushed) if i not in found]
not_completed = [i for i in set(acked) if found.get(i) != "completed"]
answers.sort()
ok = [t for t, _, s in answers if 200 <= s < 300]
gap = max(((b - a_, a_) for a_, b in zip(ok, ok[1:])), default=(0, 0))
failed = [(t, k, s) for t, k, s in answers if not 200 <= s < 300]
print("answered 201: %d, missing on the database: %d" % (len(set(pushed)), len(missing)))
print("ACKs answered 200: %d, not completed on the database: %d" % (len(set(acked)), len(not_completed)))
print("longest gap between 2xx answers: %.2f s (from %s)" % (gap[0], time.strftime("%H:%M:%S", time.gmtime(gap[1]))))
print("failed answers (kind, status; -1: no answer): %s" % dict(collections.Counter((k, s) for _, k, s in failed)))
sys.exit(1 if missing or not_completed else 0)
