#!/usr/bin/env python3
"""Markdown tables from a raw file of scripts/bench-peers.sh (docs/performance/README.md).

Usage: python3 scripts/bench-peers-table.py /tmp/steadfast-bench/raw-STAMP.jsonl

Prints: per workload and history size the median (min-max) of Steadfast and of its peer with the ratio of medians,
WAL bytes and commits per job and how many runs had autovacuum working on the Steadfast tables; then every run; the
graphile W2 processing figures; the xmin run's windows; and the issue's targets with the measured values.
"""
import json
import statistics
import sys

raw = sys.argv[1]
recs = [json.loads(line) for line in open(raw) if line.strip()]
config = next((r for r in recs if r.get('side') == 'config'), {})
DB = config.get('db', 'steadfast_bench')
seen_wl = []
for r in recs:
    if r.get('side') == 'steadfast' and not r['workload'].startswith('w2-xmin') and r['workload'] not in seen_wl:
        seen_wl.append(r['workload'])
workloads = config.get('workloads') or seen_wl
history = config.get('history') or sorted({r.get('history', 0) for r in recs if r.get('side') == 'steadfast'})
peers_h = config.get('peers_history', history[0] if history else 0)
fresh, big = min(history), max(history)

peer_key = {'w1-single': 'graphile-w1-single', 'w1-bulk': 'graphile-w1-bulk', 'w2': 'graphile-w2-c8',
            'w2-batch': 'graphile-w2-batched', 'w2-batch10': 'graphile-w2-batched', 'w3': 'graphile-w3',
            'w3-200': 'graphile-w3-200',
            'w4': 'pgboss-w4', 'w4-batch': 'pgboss-w4', 'w4-batch10': 'pgboss-w4'}
label = {'w1-single': 'W1 enqueue {n}, one job per request, 16 in flight (jobs/s)',
         'w1-bulk': 'W1 bulk enqueue {n}, 1,000 per call (jobs/s)',
         'w2': 'W2 process {n} no-op jobs, 8 workers x fetch 10, one ACK per job (jobs/s)',
         'w2-batch': 'W2 process {n}, 8 workers x fetch 100, one batch ACK per fetch (jobs/s)',
         'w2-batch10': 'W2 process {n}, 8 workers x fetch 10, one batch ACK per fetch (jobs/s)',
         'w3': 'W3 enqueue-to-fetch latency of {n} jobs, p50 / p99 (ms)',
         'w3-200': 'W3 enqueue-to-fetch latency of {n} jobs, p50 / p99 (ms)',
         'w4': 'W4 {n} jobs fail once then succeed, one FAIL/ACK per job (jobs/s)',
         'w4-batch': 'W4 {n} jobs fail once, 8 workers x fetch 100, FAILs+ACKs of a fetch in one batch request (jobs/s)',
         'w4-batch10': 'W4 {n} jobs fail once, 8 workers x fetch 10, FAILs+ACKs of a fetch in one batch request (jobs/s)'}
peer_label = {'graphile-w1-single': 'graphile addJob', 'graphile-w1-bulk': 'graphile addJobs',
              'graphile-w2-c8': 'graphile unbatched c8', 'graphile-w2-batched': 'graphile batched',
              'graphile-w3': 'graphile LISTEN/NOTIFY', 'pgboss-w4': 'pg-boss batched'}


def ok(r):
    res = r.get('result')
    return bool(res) and 'skipped' not in res and 'error' not in res


def sf_runs(wl, h):
    return [r for r in recs if r.get('side') == 'steadfast' and r.get('workload') == wl and r.get('history') == h
            and ok(r)]


def peer_runs(key):
    return [r for r in recs if r.get('side') == 'peer' and r.get('workload') == key and ok(r)]


def num(r, key):
    v = (r.get('result') or {}).get(key)
    return float(v) if isinstance(v, (int, float)) else None


def vals(runs, key):
    return [x for x in (num(r, key) for r in runs) if x is not None]


def med(xs):
    return statistics.median(xs) if xs else None


def cell(xs, d=0):
    if not xs:
        return 'n/a'
    return f'{statistics.median(xs):,.{d}f} ({min(xs):,.{d}f}-{max(xs):,.{d}f})'


def jobs_of(r):
    res = r.get('result') or {}
    n = res.get('jobs', res.get('n'))
    return n if isinstance(n, (int, float)) and n > 0 else None


def wal_per_job(r):
    lsn, n = (r.get('pg') or {}).get('lsn'), jobs_of(r)
    return lsn / n if lsn is not None and n else None


def commits_per_job(r):
    pg = r.get('pg') or {}
    c, n = pg.get('xact_commit_settled', pg.get('xact_commit')), jobs_of(r)
    return c / n if c is not None and n else None


def per_job(runs, f):
    return [x for x in (f(r) for r in runs) if x is not None]


def av_steadfast(r):
    """(working?, text): autovacuum on the Steadfast tables during the run, sampled and counted."""
    seen = [x[len(DB) + 1:].replace('autovacuum: ', '') for x in r.get('av_seen', []) if x.startswith(DB + ' ')]
    pg = r.get('pg') or {}
    av, aa = pg.get('autovacuum_count', 0), pg.get('autoanalyze_count', 0)
    parts = []
    if seen:
        parts.append('seen: ' + ', '.join(seen))
    if av or aa:
        parts.append(f'+{av} vacuum, +{aa} analyze')
    if 'av_samples' not in r:
        return False, 'not sampled'
    text = ('yes, ' + '; '.join(parts)) if parts else f'no ({r["av_samples"]} samples)'
    sav, saa = pg.get('autovacuum_count_settled', av) - av, pg.get('autoanalyze_count_settled', aa) - aa
    if sav or saa:  # finished in the settle time after the window (its commits are in commits/job)
        text += f'; +{sav} vacuum, +{saa} analyze in the settle time after'
    return bool(seen or av or aa), text


def av_other(r, own_db=DB):
    return ', '.join(x.replace('autovacuum: ', '') for x in r.get('av_seen', []) if not x.startswith(own_db + ' '))


def ratio(a, b, d=2):
    return f'{a / b:.{d}f}' if a and b else 'n/a'


def fmt(x, d=0):
    return 'n/a' if x is None else f'{x:,.{d}f}'


out = []
p = out.append

# ------------------------------------------------------------------ main table
p('| workload | history | Steadfast median (min-max) | peer median (min-max) | ratio | WAL bytes/job | commits/job'
  ' | autovacuum on Steadfast tables |')
p('|---|---|---|---|---|---|---|---|')
for wl in workloads:
    pk = peer_key.get(wl)
    for h in history:
        runs = sf_runs(wl, h)
        allruns = [r for r in recs if r.get('side') == 'steadfast' and r.get('workload') == wl and r.get('history') == h]
        ns = sorted({jobs_of(r) for r in runs if jobs_of(r)})
        lab = label.get(wl, wl).format(n='/'.join(f'{x:,}' for x in ns) or '?')
        prs = peer_runs(pk) if pk and h == peers_h else []
        wal = cell(per_job(runs, wal_per_job))
        com = cell(per_job(runs, commits_per_job), 3)
        avw = [av_steadfast(r)[0] for r in runs]
        avc = f'{sum(avw)} of {len(avw)} runs' if avw else 'n/a'
        skipped = [r['result']['skipped'] for r in allruns if r.get('result') and 'skipped' in r['result']]
        if wl.startswith('w3'):
            s50, s99 = vals(runs, 'p50_ms'), vals(runs, 'p99_ms')
            p50, p99 = vals(prs, 'p50_ms'), vals(prs, 'p99_ms')
            modes = sorted({r['result'].get('fetch_mode', '?') for r in runs})
            sc = f'{cell(s50, 2)} / {cell(s99, 2)}' if s50 else 'n/a'
            pc = f'{peer_label[pk]} {cell(p50, 2)} / {cell(p99, 2)}' if prs else '-'
            rt = (f'{ratio(med(s50), med(p50))} / {ratio(med(s99), med(p99))} (Steadfast/peer, lower is better)'
                  if prs and s50 else '-')
            p(f'| {lab} [{",".join(modes)}] | {h:,} | {sc} | {pc} | {rt} | {wal} | {com} | {avc} |')
            continue
        s = vals(runs, 'jobs_per_s')
        pv = vals(prs, 'jobs_per_s')
        sc = cell(s) if s else ('skipped: ' + skipped[0] if skipped else 'n/a')
        pc = f'{peer_label[pk]} {cell(pv)}' if prs else '-'
        rt = ratio(med(s), med(pv)) if prs else '-'
        p(f'| {lab} | {h:,} | {sc} | {pc} | {rt} | {wal} | {com} | {avc} |')

# ------------------------------------------------------------------ graphile W2 processing figures
gl = []
for key in ('graphile-w2-c8', 'graphile-w2-batched'):
    wals, coms, whole_w, whole_c = [], [], [], []
    for r in peer_runs(key):
        n = jobs_of(r)
        pg = r.get('pg') or {}
        if not n or 'lsn' not in pg:
            continue
        whole_w.append(pg['lsn'] / n)
        whole_c.append(pg.get('xact_commit', 0) / n)
        b = next((x for x in peer_runs('graphile-w1-bulk') if x['round'] == r['round'] and jobs_of(x) == n
                  and 'lsn' in (x.get('pg') or {})), None)
        if b:
            wals.append((pg['lsn'] - b['pg']['lsn']) / n)
            coms.append((pg.get('xact_commit', 0) - b['pg'].get('xact_commit', 0)) / n)
    if whole_w:
        gl.append(f'- {peer_label[key]}: processing (W2 run minus the W1 bulk run of the same round) WAL bytes/job '
                  f'{cell(wals)}, commits/job {cell(coms, 3)}; whole program (install, 20,000 addJobs, vacuum '
                  f'analyze, processing) {cell(whole_w)} and {cell(whole_c, 3)}.')
if gl:
    p('')
    p('graphile W2, the same database figures:')
    out.extend(gl)

# ------------------------------------------------------------------ xmin runs
xr = [r for r in recs if r.get('side') == 'steadfast' and r.get('workload', '').startswith('w2-xmin')]
if xr:
    p('')
    p('| xmin run | history | jobs/s per window | last / first | jobs/s overall | WAL bytes/job (with the feeder) |'
      ' commits/job | xmin age start / end | dead tuples (change) | autovacuum on Steadfast tables |')
    p('|---|---|---|---|---|---|---|---|---|---|')
    for r in xr:
        res = r.get('result') or {}
        mode = r['workload'].split('-')[-1]
        win = res.get('windows_jobs_per_s') or []
        lof = res.get('last_over_first')
        p(f'| {mode} ({res.get("duration_s", "?")} s, windows of {res.get("window_s", "?")} s) | {r.get("history", 0):,} '
          f'| {", ".join(f"{x:,.0f}" for x in win) or "n/a"} | {fmt(lof, 2)} | {fmt(num(r, "jobs_per_s"))} '
          f'| {fmt(wal_per_job(r))} | {fmt(commits_per_job(r), 3)} '
          f'| {r.get("xmin_age_start") if r.get("xmin_age_start") is not None else "-"} / '
          f'{r.get("xmin_age_end") if r.get("xmin_age_end") is not None else "-"} '
          f'| {fmt((r.get("pg") or {}).get("dead_tup_settled", (r.get("pg") or {}).get("dead_tup")))} '
          f'| {av_steadfast(r)[1]} |')

# ------------------------------------------------------------------ targets
p('')
p('| target | measured | goal | |')
p('|---|---|---|---|')


def target(name, value, goal, met):
    p(f'| {name} | {value} | {goal} | {"n/a" if met is None else ("met" if met else "missed")} |')


def thr_ratio(wl, pk, goal, name):
    a, b = med(vals(sf_runs(wl, peers_h), 'jobs_per_s')), med(vals(peer_runs(pk), 'jobs_per_s'))
    if wl in workloads:
        target(name, ratio(a, b), f'>= {goal}', (a / b >= goal) if a and b else None)


# the targets of the hot-path issue (2026-11-28)
thr_ratio('w2', 'graphile-w2-c8', 1.0, 'W2 one ACK per job (8 x fetch 10) / graphile unbatched concurrency 8')
thr_ratio('w2-batch', 'graphile-w2-batched', 0.6, 'W2 batch ACK (8 x fetch 100) / graphile batched')
thr_ratio('w4', 'pgboss-w4', 0.4, 'W4 / pg-boss')
thr_ratio('w4-batch', 'pgboss-w4', 0.8, 'W4 with batch / pg-boss')
thr_ratio('w1-bulk', 'graphile-w1-bulk', 0.7, 'W1 bulk / graphile addJobs')
if 'w3' in workloads:
    s99, g99 = med(vals(sf_runs('w3', peers_h), 'p99_ms')), med(vals(peer_runs('graphile-w3'), 'p99_ms'))
    target('W3 p99 Steadfast / graphile (lower is better)', f'{ratio(s99, g99)} ({fmt(s99, 2)} / {fmt(g99, 2)} ms)',
           '-', None)
if big != fresh:
    for wl in workloads:
        if wl.startswith('w3'):
            f99, b99 = med(vals(sf_runs(wl, fresh), 'p99_ms')), med(vals(sf_runs(wl, big), 'p99_ms'))
            f50, b50 = med(vals(sf_runs(wl, fresh), 'p50_ms')), med(vals(sf_runs(wl, big), 'p50_ms'))
            target(f'W3 latency at history {big:,} / fresh ({fresh:,}), p50 / p99 (lower is better)',
                   f'{ratio(b50, f50)} / {ratio(b99, f99)}', '-', None)
            continue
        f = med(vals(sf_runs(wl, fresh), 'jobs_per_s'))
        bs = vals(sf_runs(wl, big), 'jobs_per_s')
        if f and bs:
            m, worst = med(bs) / f, min(bs) / f
            target(f'{wl} at history {big:,} / fresh ({fresh:,}): median (worst run)', f'{m:.2f} ({worst:.2f})',
                   '>= 0.9, no run < 0.7', m >= 0.9 and worst >= 0.7)
        else:
            target(f'{wl} at history {big:,} / fresh ({fresh:,})', 'n/a', '>= 0.9, no run < 0.7', None)
for wl, wal_goal, commit_goal in (('w2', 1200, 0.3), ('w4', 3000, 0.6)):
    if wl not in workloads:
        continue
    for h in history:
        w = med(per_job(sf_runs(wl, h), wal_per_job))
        c = med(per_job(sf_runs(wl, h), commits_per_job))
        target(f'{wl} WAL bytes per job, history {h:,} (median)', fmt(w), f'<= {wal_goal:,}',
               None if w is None else w <= wal_goal)
        target(f'{wl} commits per job, history {h:,} (median)', fmt(c, 3), f'<= {commit_goal}',
               None if c is None else c <= commit_goal)
for r in xr:
    lof = (r.get('result') or {}).get('last_over_first')
    target(f'xmin run ({r["workload"].split("-")[-1]}): last window / first', fmt(lof, 2),
           '>= 0.8' if r['workload'].endswith('held') else '-',
           (lof >= 0.8 if lof is not None else None) if r['workload'].endswith('held') else None)
sf = [r for r in recs if r.get('side') == 'steadfast']
hwm = [int(r['result']['server_vmhwm_mib']) for r in sf if r.get('result') and r['result'].get('server_vmhwm_mib')]
target('server peak RSS (VmHWM, the largest of all runs; one server per history size)',
       f'{max(hwm)} MiB' if hwm else 'n/a', '-', None)

# ------------------------------------------------------------------ every run
p('')
p('| history | round | run | result | WAL bytes/job | FPI | commits/job | checkpoints | autovacuum on Steadfast tables'
  ' | other autovacuum | busy before | job rows before |')
p('|---|---|---|---|---|---|---|---|---|---|---|---|')
for r in recs:
    if r.get('side') not in ('steadfast', 'peer'):
        continue
    res = r.get('result') or {}
    pg = r.get('pg') or {}
    if 'skipped' in res:
        result = 'skipped'
    elif 'p50_ms' in res:
        result = f'p50 {fmt(num(r, "p50_ms"), 2)} / p99 {fmt(num(r, "p99_ms"), 2)} ms'
    else:
        result = f'{fmt(num(r, "jobs_per_s"))} jobs/s' if res else f'no result (rc {r.get("rc")})'
    if r.get('rc'):
        result += f' (rc {r["rc"]})'
    peer = r['side'] == 'peer'
    name = r['workload'] + (' (whole program)' if peer else '')
    fpi = pg.get('wal_fpi_settled', pg.get('wal_fpi'))
    avt = ('-' if peer else av_steadfast(r)[1])
    other = av_other(r, '\0' if peer else DB) or '-'
    p(f'| {"-" if peer else format(r.get("history", 0), ",")} | {r.get("round")} | {name} | {result} '
      f'| {fmt(wal_per_job(r))} | {fmt(fpi)} | {fmt(commits_per_job(r), 3)} | {fmt(pg.get("checkpoints"))} '
      f'| {avt} | {other} | {r.get("busy_before", "?")} | {r.get("job_rows_before", "-")} |')

# ------------------------------------------------------------------ footer
tot = lambda k: sum(int((r.get('result') or {}).get(k) or 0) for r in sf)
bad = [f"h{r.get('history')} r{r['round']} {r['workload']} rc={r['rc']}" for r in sf
       if r['rc'] != 0 or not r.get('result')]
badp = [f"r{r['round']} {r['workload']} rc={r['rc']}" for r in recs if r.get('side') == 'peer'
        and (r['rc'] != 0 or not r.get('result') or 'error' in (r.get('result') or {}))]
ready = [r['ready_ms'] for r in recs if r.get('event') == 'ready']
seeds = [f"{r['history']:,} jobs in {r['seconds']} s" for r in recs if r.get('event') == 'seed']
p('')
p(f'Steadfast runs: {len(sf)}; lost {tot("lost")}, duplicates {tot("duplicates")}, failed requests '
  f'{tot("failed_requests")}; runs with a non-zero exit or no RESULT: {", ".join(bad) or "none"}.')
p(f'Peer runs with an error: {", ".join(badp) or "none"}.')
p(f'Server peak RSS (VmHWM): {max(hwm) if hwm else "n/a"} MiB; start to healthy: '
  f'{", ".join(str(x) for x in ready) or "n/a"} ms; seeded: {"; ".join(seeds) or "nothing"}.')
p(f'History sizes {", ".join(f"{h:,}" for h in history)} (jobs seeded by scripts/seed-jobs.sql into a fresh database '
  f'before the runs of each; earlier runs of the same size add theirs: "job rows before" per run); peers in the '
  f'rounds of {peers_h:,}.')
p(f'WAL bytes/job: pg_current_wal_lsn() right before and right after the timed part, whole cluster (the run, the '
  f'server\'s background, autovacuum of any database and checkpoints in that window; FPI and checkpoints per run '
  f'above). Commits/job: xact_commit of the run\'s database, read {config.get("stats_settle_s", "?")} s before the '
  f'clock starts and {config.get("stats_settle_s", "?")} s after it stops (statistics arrive late): the run, the '
  f'server\'s background statements of the window and of the settle time, 1 of the read. W3\'s include its 3 s idle '
  f'start; the xmin run\'s its feeder\'s enqueues. Peers: over the whole program.')
p(f'Raw: {raw}')
p('')
p('Commands: Steadfast `java -jar tools/target/steadfast-tools.jar bench --url http://127.0.0.1:PORT <options>'
  ' --warmup 0 --server-pid PID'
  ' --before-timing "psql ... -d steadfast_bench -c \'vacuum analyze\'" --pg-stats "psql ..." --pg-stats-settle-ms N'
  + (' ' + config['bench_args'] if config.get('bench_args') else '') + '` (server: the packaged jar on database '
  'steadfast_bench, warmed up once per history size); peers from /tmp/peerbench/node on a fresh database per run:')
for c in sorted({r['command'] for r in recs if r.get('side') == 'peer' and r.get('command')}):
    p(f'`node {c}`')
opts = sorted({(r['workload'], r['args'].strip()) for r in sf if r.get('args', '').strip()})
if opts:
    p('Steadfast options: ' + '; '.join(f'{w}: `{a}`' for w, a in opts))
print('\n'.join(out))
