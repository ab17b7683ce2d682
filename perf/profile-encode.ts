/**
 * The pipeline alone, for a CPU profile: 10,000 Encodes (scripts of 1,000), 300 filtered
 * Retrieves and 300 filtered Updates on an in-memory store, with the workload of
 * perf/engine-perf.ts (perf/workload.ts). `--phase encode|retrieve|update` profiles one phase
 * only (the others still run, outside the profile, so the store is the same).
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx perf/profile-encode.ts [--phase encode] [--one-at-a-time]
 * `--one-at-a-time` runs every Encode on its own (`batch: false`) instead of in runs.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { run } from '../src/engine/index.js';
import { createStore } from '../src/dialect/sqlite/store.js';
import { NOW, encodeIr, filter, rng } from './workload.js';

const phaseAt = process.argv.indexOf('--phase');
const phase = phaseAt > 0 ? process.argv[phaseAt + 1] : undefined;
const session = phase ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
}
async function timed(name: string, f: () => void): Promise<number> {
  if (session && phase === name) await session.post('Profiler.start');
  const t = performance.now();
  f();
  const ms = performance.now() - t;
  if (session && phase === name) {
    const { profile } = await session.post('Profiler.stop');
    const out = `/tmp/profile-${name}.cpuprofile`;
    writeFileSync(out, JSON.stringify(profile));
    console.error(`profile of ${name}: ${out}`);
  }
  return ms;
}

const single = process.argv.includes('--one-at-a-time');
const store = await createStore();
const rand = rng(10_000);
const encode = await timed('encode', () => {
  for (let done = 0; done < 10_000; done += 1000) run(store, Array.from({ length: 1000 }, (_, j) => encodeIr(done + j, rand)), { now: NOW, batch: !single });
});
const retrieve = await timed('retrieve', () => {
  for (let k = 0; k < 300; k++) run(store, [{ stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } }], { now: NOW });
});
const update = await timed('update', () => {
  for (let k = 0; k < 300; k++) run(store, [{ stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } }], { now: NOW });
});
console.log(`encode ${encode.toFixed(0)} ms, retrieve ${retrieve.toFixed(0)} ms, update ${update.toFixed(0)} ms`);
