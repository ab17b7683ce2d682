/**
 * What each statement pays before lowering when the engine runs IRs (`run(store, irs)`): the
 * resource limits (`checkLimits`), validation's fast path (`conformsToIr`), the checker (`check`)
 * and the reference lookup the run loop makes (`refsOf`), per statement in µs, for the three IR
 * shapes of perf/engine-perf.ts (an Encode of perf/workload.ts, the filtered Retrieve, the
 * filtered Update), each of this checkout (B) against another checkout (A, e.g. the base
 * /work/wt/base4b6) in one process, alternating:
 *   - warm: each stage alone in a loop over 2,000 statements (the JIT's best case), CPU time;
 *   - cold: each statement's stages timed one after another, between two SQLite queries on an
 *     sql.js store of 2,000 records (as in a run, where the JavaScript runs between SQLite calls).
 * Each figure is the mean of the three fastest rounds (default 15). Figures, not asserts; on a
 * loaded machine the ratios inside one run mean more than the times.
 *   nice node --import tsx perf/prelude.ts /work/wt/base4b6 [rounds]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import * as checkB from '../src/check/index.js';
import * as conformsB from '../src/ir/conforms.js';
import * as limitsB from '../src/engine/limits.js';
import * as refsB from '../src/check/rules/ReferenceRule.js';
import { run } from '../src/engine/index.js';
import { createStore } from '../src/dialect/sqlite/store.js';
import { NOW, encodeIr, filter, rng } from './workload.js';

const base = process.argv[2];
if (!base) throw new Error('usage: perf/prelude.ts <other checkout> [rounds]');
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(base, path)).href)) as T;
const A = {
  check: await load<typeof checkB>('src/check/index.ts'),
  conforms: await load<typeof conformsB>('src/ir/conforms.ts'),
  limits: await load<typeof limitsB>('src/engine/limits.ts'),
  refs: await load<typeof refsB>('src/check/rules/ReferenceRule.ts'),
};
const B = { check: checkB, conforms: conformsB, limits: limitsB, refs: refsB };
type Side = typeof B;
const ROUNDS = Number(process.argv[3] ?? 15);
const N = 2000;

const rand = rng(N);
const shapes: Record<string, unknown[]> = {
  encode: Array.from({ length: N }, (_, i) => encodeIr(i, rand)),
  retrieve: Array.from({ length: N }, (_, k) => ({ stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } })),
  update: Array.from({ length: N }, (_, k) => ({ stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } })),
};

// The engine runs these per statement (a script of one statement for Retrieve and Update; for
// Encode the script is 1,000 statements, but each stage's work is per statement all the same).
const limits = B.limits.resolveLimits(undefined);
// The statements validation's walk vouches for to the checker (`irConformance`, where a side has
// it), found once: the engine passes its walk's verdict on to `check` (CheckOptions.vouched), and
// each side's check is given it (a side without the option ignores it).
const vouch = new WeakSet<object>();
const withVouch = (s: Side): s is Side & { conforms: { irConformance(ir: unknown): string } } => 'irConformance' in s.conforms;
const stages: ReadonlyArray<readonly [string, (s: Side, ir: unknown) => unknown]> = [
  ['checkLimits', (s, ir) => s.limits.checkLimits([ir], limits)],
  ['conformsToIr', (s, ir) => (withVouch(s) ? s.conforms.irConformance(ir) !== 'no' : s.conforms.conformsToIr(ir))],
  ['check', (s, ir) => s.check.check([ir as never], { vouched: [vouch.has(ir as object)] })],
  ['refsOf', (s, ir) => s.refs.refsOf(ir as never)],
];

for (const irs of Object.values(shapes)) for (const ir of irs) if (withVouch(B) && B.conforms.irConformance(ir) === 'vouched') vouch.add(ir as object);
// A and B agree on every statement (the comparison test is test/check/prelude-equal.test.ts).
for (const irs of Object.values(shapes)) {
  for (const ir of irs) for (const [name, f] of stages) if (!isDeepStrictEqual(f(A, ir), f(B, ir))) throw new Error(`A and B differ in ${name}`);
}

const store = await createStore();
{
  const r = run(store, shapes.encode, { now: NOW });
  if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
}
const driver = store.driver;
const query = { sql: "SELECT id, text FROM memory WHERE id > ? ORDER BY id LIMIT 20", params: [0] };
const sqlite = (k: number): void => {
  query.params[0] = (k * 37) % N;
  driver.all(query.sql, query.params);
};

let sink = 0;
/** µs per statement of each stage, warm: one stage over all the statements of a shape. */
function warm(side: Side, irs: readonly unknown[]): number[] {
  // CPU time (a loaded machine's waits are not counted), in µs.
  return stages.map(([, f]) => {
    const c0 = process.cpuUsage();
    for (let i = 0; i < irs.length; i++) if (f(side, irs[i])) sink++;
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / irs.length;
  });
}
/** µs per statement of each stage, cold: a statement's stages in turn, between SQLite queries. */
function cold(side: Side, irs: readonly unknown[]): number[] {
  const total = stages.map(() => 0);
  for (let i = 0; i < irs.length; i++) {
    sqlite(i);
    for (let s = 0; s < stages.length; s++) {
      const t = performance.now();
      if (stages[s][1](side, irs[i])) sink++;
      total[s] += performance.now() - t;
    }
    sqlite(i + 1);
  }
  return total.map((ms) => (ms * 1000) / irs.length);
}

const results = new Map<string, number[][]>();
for (let r = 0; r < ROUNDS; r++) {
  for (const [shape, irs] of Object.entries(shapes)) {
    for (const [sideName, side] of r % 2 ? [['B', B], ['A', A]] as const : [['A', A], ['B', B]] as const) {
      for (const [mode, f] of [['warm', warm], ['cold', cold]] as const) {
        const key = `${shape} ${mode} ${sideName}`;
        if (!results.has(key)) results.set(key, []);
        results.get(key)!.push(f(side, irs));
      }
    }
  }
}
// The mean of the three fastest rounds: load only adds time, so it moves less than the median.
const low = (xs: number[]) => [...xs].sort((x, y) => x - y).slice(0, 3).reduce((a, b) => a + b, 0) / Math.min(3, xs.length);
const fmt = (x: number) => x.toFixed(2).padStart(7);
console.log(`µs per statement (warm: CPU time; cold: wall time), mean of the 3 fastest of ${ROUNDS} rounds of ${N} statements (A = ${base}, B = this checkout)`);
console.log(`${'shape mode side'.padEnd(20)}${stages.map(([n]) => n.padStart(13)).join('')}        total`);
for (const shape of Object.keys(shapes)) {
  for (const mode of ['warm', 'cold']) {
    const rows: Record<string, number[]> = {};
    for (const side of ['A', 'B']) {
      const runs = results.get(`${shape} ${mode} ${side}`)!;
      rows[side] = stages.map((_, s) => low(runs.map((x) => x[s])));
      const sum = rows[side].reduce((a, b) => a + b, 0);
      console.log(`${`${shape} ${mode} ${side}`.padEnd(20)}${rows[side].map((x) => fmt(x).padStart(13)).join('')}${fmt(sum).padStart(13)}`);
    }
    const ta = rows.A.reduce((a, b) => a + b, 0);
    const tb = rows.B.reduce((a, b) => a + b, 0);
    console.log(`${`${shape} ${mode} B/A`.padEnd(20)}${stages.map((_, s) => (rows.B[s] / rows.A[s]).toFixed(2).padStart(13)).join('')}${(tb / ta).toFixed(2).padStart(13)}`);
  }
}
if (sink < 0) console.log(sink);
