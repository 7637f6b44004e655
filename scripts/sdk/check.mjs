// The official OJS JavaScript SDK against a running server (scripts/sdk-check.sh): workflows, a worker,
// progress reports, event subscriptions, unique jobs, the type of a FAIL without one, and a durable handler resumed
// from its checkpoint. Usage: OJS_JS_SDK=<built SDK dir> node check.mjs <url> <token>
const sdk = process.env.OJS_JS_SDK;
const { OJSClient, OJSWorker, chain, group, batch, reportProgress, HttpTransport, DurableContext } = await import(`${sdk}/dist/esm/index.js`);
const { subscribeQueue, subscribeJob } = await import(`${sdk}/dist/esm/subscribe.js`);
const url = process.argv[2], auth = process.argv[3];
const bearer = `Bearer ${auth}`;
const client = new OJSClient({ url, auth: bearer });
const transport = new HttpTransport({ url, auth: bearer });
const results = [];
const check = (name, ok, extra = '') => { results.push([name, ok]); console.log(`${ok ? 'PASS' : 'FAIL'} ${name} ${extra}`); };
const sleep = (ms) => new Promise(r => setTimeout(r, ms));
const q = 'sdk' + Date.now();
const events = [], jobEvents = [];
const sub = subscribeQueue({ url, auth }, q, e => events.push(e));
await sleep(300);
const w = new OJSWorker({ url, auth: bearer, queues: [q], concurrency: 4, pollInterval: 100, handleSignals: false });
const seen = [];
w.register('sdk.step', async (ctx) => { seen.push(ctx.job.id); await reportProgress(transport, ctx.job.id, 50, 'half'); return { n: ctx.job.args?.[0] ?? null }; });
w.register('sdk.fail', async () => { throw new Error('boom'); });
w.register('sdk.cb', async () => ({ cb: true }));
// durable execution (DurableContext): the first attempt records a side effect, saves a checkpoint through the SDK's
// route and fails; the second gets the checkpoint from FETCH and replays the side effect from it, then deletes it.
// The SDK's registerDurable() hands DurableContext the worker's transport, which puts /ojs/v1 before paths that
// already start with it (/ojs/v1/ojs/v1/checkpoints/...: no server serves that); this is registerDurable() with a
// transport that sends DurableContext's paths as written (docs/reference/protocol-notes.md, "Durable execution").
const asWritten = { request: (o) => transport.request({ ...o, rawPath: true }) };
const durable = { calls: 0, attempts: [], replaying: [], fetched: [] };
w.register('sdk.durable', async (ctx) => {
  const dc = await DurableContext.create(asWritten, ctx.job.id, ctx.attempt);
  durable.attempts.push(ctx.attempt);
  durable.fetched.push(ctx.job.checkpoint?.sequence ?? null);
  durable.replaying.push(dc.isReplaying());
  const v = await dc.sideEffect('pick', async () => { durable.calls++; return 41; });
  await dc.checkpoint(1, { value: v });
  if (ctx.attempt === 1) throw new Error('crash after the checkpoint');
  await dc.complete();
  return { value: v + 1 };
});
await w.start();
const opts = { queue: q, retry: { max_attempts: 1 } };
let s;
try { s = await client.workflow(chain({ type: 'sdk.step', args: [1], options: opts }, { type: 'sdk.step', args: [2], options: opts }, { type: 'sdk.step', args: [3], options: opts }));
  check('chain created, id at top level', typeof s?.id === 'string', JSON.stringify(s).slice(0, 200)); } catch (e) { check('chain created', false, e.message); }
let g;
try { g = await client.workflow(group({ type: 'sdk.step', args: [1], options: opts }, { type: 'sdk.fail', args: [2], options: opts }));
  check('group created', typeof g?.id === 'string'); } catch (e) { check('group created', false, e.message); }
let b;
try { b = await client.workflow(batch([{ type: 'sdk.step', args: [1], options: opts }], { on_complete: { type: 'sdk.cb', args: [], options: opts } }));
  check('batch created', typeof b?.id === 'string'); } catch (e) { check('batch created', false, e.message); }
const single = await client.enqueue('sdk.step', [9], { queue: q });
const jsub = subscribeJob({ url, auth }, single.id, e => jobEvents.push(e));
for (let i = 0; i < 60; i++) {
  await sleep(250);
  const states = await Promise.all([s, g, b].filter(x => x?.id).map(x => client.getWorkflow(x.id).then(v => v.state ?? v.workflow?.state)));
  if (states.every(st => st === 'completed' || st === 'failed')) break;
}
for (const [name, x, want] of [['chain', s, 'completed'], ['group', g, 'failed'], ['batch', b, 'completed']]) {
  if (!x?.id) continue;
  const v = await client.getWorkflow(x.id);
  check(`${name} state ${want} (SDK reads .state)`, v.state === want, `state=${v.state} wrapped=${v.workflow?.state}`);
}
// unique jobs as the SDK sends them: {"key": ["order"], "period": "PT1M", "on_conflict": "reject"}, on a queue no
// worker takes, so the first job still holds the key when the duplicate arrives
const unique = { queue: `${q}-u`, unique: { key: ['order'], period: 'PT1M', onConflict: 'reject' } };
const order = Date.now();
try {
  const u1 = await client.enqueue('sdk.unique', { order }, unique);
  check('unique job created', typeof u1?.id === 'string', u1?.id);
  try { const dup = await client.enqueue('sdk.unique', { order }, unique); check('unique duplicate refused', false, `accepted as ${dup?.id}`); }
  catch (e) { check('unique duplicate refused with 409 duplicate', e.code === 'duplicate', `${e.name} ${e.code} ${e.message}`); }
  const other = await client.enqueue('sdk.unique', { order: order + 1 }, unique);
  check('another order is another key', typeof other?.id === 'string' && other.id !== u1.id);
} catch (e) { check('unique job created', false, e.message); }
const failing = await client.enqueue('sdk.fail', [0], { queue: q, retry: { maxAttempts: 1 } });
const job = await client.getJob(single.id);
check('single job completed', job.state === 'completed', job.state);
for (let i = 0; i < 40 && !['discarded', 'completed'].includes((await client.getJob(failing.id)).state); i++) await sleep(250);
const failedView = JSON.stringify(await client.getJob(failing.id));
check('a thrown handler error (no type, its stack in details) is recorded as HandlerError', failedView.includes('"HandlerError"') && !failedView.includes('InternalServerError'), failedView.slice(0, 300));
const dj = await client.enqueue('sdk.durable', [], { queue: q, retry: { maxAttempts: 2, initialInterval: 'PT0.1S', jitter: false } });
for (let i = 0; i < 60 && !['discarded', 'completed'].includes((await client.getJob(dj.id)).state); i++) await sleep(250);
check('durable job completed on its second attempt', (await client.getJob(dj.id)).state === 'completed' && durable.attempts.join() === '1,2', `attempts=${durable.attempts}`);
check('FETCH handed the checkpoint to the second attempt only', durable.fetched[0] === null && durable.fetched[1] === 1, `sequences=${durable.fetched}`);
check('the second attempt replayed the side effect from the checkpoint', durable.calls === 1 && durable.replaying[1] === true, `calls=${durable.calls} replaying=${durable.replaying}`);
const resume = await fetch(`${url}/ojs/v1/checkpoints/${dj.id}/resume`, { headers: { Authorization: `Bearer ${auth}` } }).then(r => r.json());
check('no checkpoint once the job completed', resume.has_checkpoint === false, JSON.stringify(resume));
const p = await fetch(`${url}/ojs/v1/jobs/${single.id}/progress`, { headers: { Authorization: `Bearer ${auth}` } }).then(r => r.json());
check('progress recorded through the SDK route', JSON.stringify(p).includes('"progress"'), JSON.stringify(p).slice(0, 200));
await sleep(16000); // past one keep-alive (every 15 s), which must not reach the handlers
check('queue subscriber got events only of its queue', events.length > 0 && events.every(e => JSON.stringify(e).includes(q)), `n=${events.length}`);
check('no keep-alive reached the handler as an event', events.every(e => e.type !== 'keepalive' && e.type !== undefined), JSON.stringify(events[0] ?? {}).slice(0, 200));
check('job subscriber got events of its job only', jobEvents.length > 0 && jobEvents.every(e => JSON.stringify(e).includes(single.id)), `n=${jobEvents.length}`);
sub.unsubscribe(); jsub.unsubscribe();
await w.stop();
const failed = results.filter(r => !r[1]).length;
console.log(`RESULT passed=${results.length - failed} failed=${failed}`);
process.exit(failed ? 1 : 0);
