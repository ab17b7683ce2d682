/**
 * Where a filtered Retrieve's or Update's time goes when the pipeline and the replay of its SQL
 * take turns, as perf/engine-perf.ts runs them (so the engine's JavaScript runs as cold as it does
 * there): a CPU profile of that loop, split by call stack into the driver's calls (SQL) and the
 * engine's own JavaScript, with the main parts of the latter. Figures, not asserts; sampled, so
 * compare runs of the same machine load only.
 *
 * Run: nice -n 5 npx tsx perf/ru-split.ts [update|retrieve] [statements] [engine: …/src/index.ts]
 *   (sql.js in memory, 10k memories; the profile is written to /tmp/ru-split-<kind>.cpuprofile)
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NOW, filter, populate } from './workload.js';

const kind = process.argv[2] ?? 'update';
const N = Number(process.argv[3] ?? 600);
const engine: typeof import('../src/index.js') = process.argv[4] ? await import(pathToFileURL(resolve(process.argv[4])).href) : await import('../src/index.js');
const store = await engine.createStore();
const replay = (await engine.createStore()).driver;
populate(engine, store, replay, 10_000);
type Stmt = { sql: string; params: unknown };
// Named functions: the profile is split by them.
function pipeline(ir: unknown): readonly Stmt[] {
  const r = engine.run(store, [ir], { now: NOW });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
  return r.results[0].sql;
}
function replaying(sql: readonly Stmt[]): void {
  replay.begin();
  for (const x of sql) replay.all(x.sql, x.params as never);
  replay.commit();
}
const statement = (k: number) => kind === 'retrieve'
  ? { stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } }
  : { stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } };
for (let k = 0; k < 50; k++) replaying(pipeline(statement(900 + k))); // warm-up (other filters)

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
for (let k = 0; k < N; k++) replaying(pipeline(statement(k)));
const { profile } = await session.post('Profiler.stop');
const out = `/tmp/ru-split-${kind}.cpuprofile`;
writeFileSync(out, JSON.stringify(profile));

// Each sample's time goes to the pipeline or the replay (by the loop's function on its stack), and
// within the pipeline to SQL when a driver call is on the stack, else to the engine's JavaScript.
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const PARTS = ['prepareScript', 'check', 'conformsToIr', 'lowerIr', 'compile', 'target', 'update', 'withAudit', 'readResult'];
const sum = { pipeline: 0, sql: 0, replay: 0, gc: 0 };
const parts = new Map<string, number>();
const deltas = profile.timeDeltas ?? [];
(profile.samples ?? []).forEach((id, i) => {
  const t = deltas[i] ?? 0;
  let side: 'pipeline' | 'replay' | undefined;
  let sql = false;
  const seen = new Set<string>();
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
    const f = nodes.get(x)!.callFrame;
    if (f.functionName === 'pipeline' || f.functionName === 'replaying') { side = f.functionName === 'pipeline' ? 'pipeline' : 'replay'; break; }
    if (f.url.includes('/src/sqlite/') && /^(all|run|exec|begin|commit|rollback)$/.test(f.functionName)) sql = true;
    if (f.url.includes('/src/') && PARTS.includes(f.functionName)) seen.add(f.functionName);
  }
  if (nodes.get(id)!.callFrame.functionName === '(garbage collector)') sum.gc += t;
  if (side === 'replay') sum.replay += t;
  if (side !== 'pipeline') return;
  sum.pipeline += t;
  if (sql) sum.sql += t;
  else for (const p of seen) parts.set(p, (parts.get(p) ?? 0) + t);
});
const us = (t: number) => `${(t / N).toFixed(0)} µs`;
console.log(`${N} filtered ${kind === 'retrieve' ? 'Retrieves' : 'Updates'} at 10k memories (sql.js), per statement, sampled (profile: ${out}):`);
console.log(`  pipeline ${us(sum.pipeline)} = SQL ${us(sum.sql)} + the engine's JavaScript ${us(sum.pipeline - sum.sql)}; replay ${us(sum.replay)}; garbage collection ${us(sum.gc)} (either side)`);
console.log(`  JavaScript by part (inclusive, without SQL): ${PARTS.filter((p) => parts.has(p)).map((p) => `${p} ${us(parts.get(p)!)}`).join(', ')}`);
