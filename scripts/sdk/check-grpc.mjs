// The official OJS JavaScript SDK's GrpcTransport against a running server (scripts/sdk-check.sh --js-grpc): a
// producer (OJSClient) and a worker (OJSWorker, heartbeats every 0.5 s) over gRPC complete jobs, retry a job whose
// handler throws once, and dead-letter a job whose handler always throws (max_attempts 2); outcomes are read over
// gRPC (GetJob, ListDeadLetter) and over HTTP (the job's result and error history).
// Usage: OJS_JS_SDK=<built SDK dir, @grpc/grpc-js and @grpc/proto-loader installed> node check-grpc.mjs <host:port> <token> <proto dir>
//
// Two defects of GrpcTransport 0.4.0 (docs/reference/protocol-notes.md, "The JavaScript SDK's gRPC transport") are
// worked around by `mended`, a transport that rewrites the SDK's HTTP-shaped body before GrpcTransport converts it:
// the retry policy's snake_case keys (dropped by protobufjs, which reads camelCase names) and an ACK's result (a
// plain object where google.protobuf.Struct wants {fields: {k: Value}}). The NOTE lines show both defects on the
// unmended transport, and a third one that no transport around it can mend (args 0, false and "" read back as
// null); they are not counted.
const sdk = process.env.OJS_JS_SDK;
const { OJSClient, OJSWorker, GrpcTransport } = await import(`${sdk}/dist/esm/index.js`);
const [hostPort, token, protoPath] = process.argv.slice(2);
const auth = `Bearer ${token}`;
const http = `http://${hostPort}`;
const raw = new GrpcTransport({ url: hostPort, auth, protoPath });
const value = (v) => v === null || v === undefined ? { nullValue: 0 }
  : typeof v === 'string' ? { stringValue: v } : typeof v === 'number' ? { numberValue: v }
  : typeof v === 'boolean' ? { boolValue: v } : Array.isArray(v) ? { listValue: { values: v.map(value) } }
  : { structValue: struct(v) };
const struct = (o) => ({ fields: Object.fromEntries(Object.entries(o).map(([k, v]) => [k, value(v)])) });
const camel = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(/_(.)/g, (_, c) => c.toUpperCase()), v]));
const mended = {
  request(options) {
    const body = options.body;
    if (options.path === '/jobs' && body?.options?.retry) {
      const { initial_interval, max_interval, ...retry } = body.options.retry; // Duration fields: not mended
      body.options = { ...body.options, retry: camel(retry) };
    }
    if (options.path === '/workers/ack' && body?.result && typeof body.result === 'object' && !Array.isArray(body.result)) {
      body.result = struct(body.result);
    }
    if (options.path !== '/workers/heartbeat') return raw.request(options);
    return raw.request(options).then(r => { beats.push(r.body.state); return r; }, e => { beats.push(e); throw e; });
  },
};
const beats = [];
const client = new OJSClient({ url: http, transport: mended });
const results = [];
const check = (name, ok, extra = '') => { results.push([name, ok]); console.log(`${ok ? 'PASS' : 'FAIL'} ${name} ${extra}`); };
const sleep = (ms) => new Promise(r => setTimeout(r, ms));
const httpJob = (id) => fetch(`${http}/ojs/v1/jobs/${id}`, { headers: { Authorization: auth } }).then(r => r.json()).then(b => b.job ?? b);
const q = 'sdkgrpc' + Date.now();

// The defects, shown on the unmended transport (a queue no worker takes).
const plain = new OJSClient({ url: http, transport: raw });
const lost = await plain.enqueue('sdk.note', [0, false, '', 1], { queue: `${q}-note`, retry: { maxAttempts: 2 } });
console.log(`NOTE unmended GrpcTransport: retry.maxAttempts 2 reached the server as max_attempts ${(await httpJob(lost.id)).retry?.max_attempts}`);
const got = await raw.request({ method: 'POST', path: '/workers/fetch', body: { queues: [`${q}-note`], count: 1, worker_id: 'note' } });
console.log(`NOTE GrpcTransport: args [0,false,"",1] reached the worker as ${JSON.stringify(got.body.jobs[0].args)}`);
await raw.request({ method: 'POST', path: '/workers/ack', body: { job_id: got.body.jobs[0].id, result: { n: 1 } } });
console.log(`NOTE unmended GrpcTransport: an ACK with result {"n":1} stored result ${JSON.stringify((await httpJob(lost.id)).result)}`);

const worker = new OJSWorker({ url: http, transport: mended, queues: [q], concurrency: 4, pollInterval: 100, heartbeatInterval: 500, handleSignals: false });
const calls = {};
worker.register('sdk.ok', async (ctx) => ({ doubled: ctx.job.args[0] * 2 }));
worker.register('sdk.flaky', async (ctx) => {
  calls[ctx.job.id] = (calls[ctx.job.id] ?? 0) + 1;
  if (calls[ctx.job.id] === 1) throw new Error('first attempt fails');
  return { attempts: calls[ctx.job.id] };
});
worker.register('sdk.doomed', async () => { throw new Error('always fails'); });
await worker.start();

let ok = [], flaky, doomed;
try {
  ok = await Promise.all([1, 2, 3].map(n => client.enqueue('sdk.ok', [n], { queue: q })));
  flaky = await client.enqueue('sdk.flaky', ['x'], { queue: q, retry: { maxAttempts: 3, backoff: 'none' } });
  doomed = await client.enqueue('sdk.doomed', ['y'], { queue: q, retry: { maxAttempts: 2, onExhaustion: 'dead_letter' } });
  check('producer enqueued 5 jobs over gRPC (Enqueue)', [...ok, flaky, doomed].every(j => typeof j?.id === 'string' && j.id.length > 0 && j.state === 'available'),
    [...ok, flaky, doomed].map(j => j?.state).join(','));
} catch (e) { check('producer enqueued 5 jobs over gRPC (Enqueue)', false, `${e.name} ${e.code} ${e.message}`); }
const done = (s) => ['completed', 'discarded', 'cancelled'].includes(s);
for (let i = 0; i < 120; i++) {
  const states = await Promise.all([...ok, flaky, doomed].filter(Boolean).map(j => client.getJob(j.id).then(v => v.state)));
  if (states.length === 5 && states.every(done)) break;
  await sleep(250);
}
await worker.stop();
check('the worker\'s heartbeats (Heartbeat, every 0.5 s) answered running', beats.length > 0 && beats.every(b => b === 'running'),
  `n=${beats.length} ${beats.filter(b => b !== 'running').map(String).join('; ').slice(0, 200)}`);
for (const j of ok) {
  const v = await client.getJob(j.id), h = await httpJob(j.id);
  check(`job ${j.args?.[0] ?? ''} completed (GetJob), its result stored`, v.state === 'completed' && h.result?.doubled === h.args[0] * 2,
    `state=${v.state} attempt=${v.attempt} result=${JSON.stringify(h.result)}`);
}
if (flaky) {
  const v = await client.getJob(flaky.id), h = await httpJob(flaky.id);
  check('a handler that throws once: retried, completed on attempt 2', v.state === 'completed' && v.attempt === 2 && calls[flaky.id] === 2,
    `state=${v.state} attempt=${v.attempt} handler_calls=${calls[flaky.id]}`);
  check('its first attempt\'s error is in the job\'s history', JSON.stringify(h.errors ?? h.error ?? '').includes('first attempt fails'),
    JSON.stringify(h.errors ?? h.error ?? null).slice(0, 200));
}
if (doomed) {
  const v = await client.getJob(doomed.id), h = await httpJob(doomed.id);
  check('a handler that always throws, max_attempts 2: discarded after 2 attempts', v.state === 'discarded' && v.attempt === 2 && h.retry?.max_attempts === 2,
    `state=${v.state} attempt=${v.attempt} max_attempts=${h.retry?.max_attempts}`);
  const dl = await raw.request({ method: 'GET', path: '/dead-letter', body: { queue: q } });
  const ids = (dl.body.jobs ?? []).map(j => j.id);
  check('it is in the dead letters (ListDeadLetter over gRPC)', ids.length === 1 && ids[0] === doomed.id, `ids=${JSON.stringify(ids)}`);
}
raw.close();
const failed = results.filter(r => !r[1]).length;
console.log(`RESULT passed=${results.length - failed} failed=${failed}`);
process.exit(failed ? 1 : 0);
