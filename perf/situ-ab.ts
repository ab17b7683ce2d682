/**
 * The engine's JavaScript per filtered Retrieve and Update *in situ* — between SQLite calls, as
 * perf/engine-perf.ts runs them (each statement's pipeline, then the replay of its SQL on a second
 * store) — for this engine and another checkout's, in one process: the two engines take turns
 * batch by batch, so machine load hits both alike. Each store's driver is wrapped with a clock, so
 * a statement's JavaScript is its pipeline's wall time less the time spent in its driver's calls
 * (the prelude, lowering, compiling, execution and the generator driving, together). Figures, not
 * asserts. Also the pipeline's ratio to the replay ("x SQL", as engine-perf.ts gives it).
 *
 * Run: T2M_ENGINE_B=/path/to/other/checkout/src/index.ts npx tsx perf/situ-ab.ts [size] [rounds] [--db <path>]
 *   (T2M_ENGINE_A=… puts another engine in this one's place: A/A runs show the noise, and swapping
 *   the two shows whether the order of loading favours one)
 *   (sql.js in memory, or with --db store files on better-sqlite3: <path>.a, <path>.b and their
 *   replays, removed afterwards; a round is 50 retrieves then 50 updates per engine)
 */
import { SIZE, files, openSide, removeStores, roundsOr } from './ab-engines.js';
import { NOW, filter } from './workload.js';

type Engine = typeof import('../src/index.js');
type Stmt = { sql: string; params: unknown };
const BATCH = 50;
const ROUNDS = roundsOr(12);

interface Side {
  readonly engine: Engine;
  readonly store: any;
  readonly replayStore: any;
  readonly replay: any;
  /** Time in the pipeline store's driver calls since the last reset (ms). */
  readonly clock: { t: number };
  readonly js: Record<'retrieve' | 'update', number[]>;
  readonly ratio: Record<'retrieve' | 'update', { pipeline: number; replay: number }>;
}

async function side(name: 'a' | 'b'): Promise<Side> {
  const { engine, store, replayStore, replay } = await openSide(name);
  // The driver's methods, timed (the same wrapper on both engines' stores).
  const clock = { t: 0 };
  const d = store.driver;
  for (const m of ['all', 'run', 'exec', 'begin', 'commit', 'rollback']) {
    const f = d[m].bind(d);
    d[m] = (...a: unknown[]) => {
      const t = performance.now();
      try {
        return f(...a);
      } finally {
        clock.t += performance.now() - t;
      }
    };
  }
  return { engine, store, replayStore, replay, clock, js: { retrieve: [], update: [] }, ratio: { retrieve: { pipeline: 0, replay: 0 }, update: { pipeline: 0, replay: 0 } } };
}

function batch(s: Side, kind: 'retrieve' | 'update', first: number, counted: boolean): void {
  for (let k = first; k < first + BATCH; k++) {
    const ir = kind === 'retrieve'
      ? { stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } }
      : { stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } };
    s.clock.t = 0;
    const t0 = performance.now();
    const r = s.engine.run(s.store, [ir], { now: NOW });
    const t1 = performance.now();
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
    const sql: readonly Stmt[] = r.results[0].sql;
    s.replay.begin();
    for (const x of sql) s.replay.all(x.sql, x.params);
    s.replay.commit();
    const t2 = performance.now();
    if (counted) {
      s.js[kind].push((t1 - t0 - s.clock.t) * 1000);
      s.ratio[kind].pipeline += t1 - t0;
      s.ratio[kind].replay += t2 - t1;
    }
  }
}

const sides = { a: await side('a'), b: await side('b') };
// One warm-up round, then ROUNDS counted, the order of the engines alternating.
for (let round = 0; round <= ROUNDS; round++) {
  for (const kind of ['retrieve', 'update'] as const) {
    for (const name of round % 2 ? (['a', 'b'] as const) : (['b', 'a'] as const)) batch(sides[name], kind, (round * BATCH) % 900, round > 0);
  }
}
removeStores(Object.values(sides));
const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
const at = (xs: number[], q: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
console.log(`${SIZE.toLocaleString('en-US')} memories, ${ROUNDS} × ${BATCH} statements per kind and engine, alternating (${files ? 'better-sqlite3 store files' : 'sql.js in memory'})`);
console.log('JavaScript per statement in situ, µs (pipeline wall time less its driver calls): median / mean / p90; x SQL');
for (const kind of ['retrieve', 'update'] as const) {
  const line = (s: Side) => `${at(s.js[kind], 0.5).toFixed(0)} / ${mean(s.js[kind]).toFixed(0)} / ${at(s.js[kind], 0.9).toFixed(0)}; ×${(s.ratio[kind].pipeline / s.ratio[kind].replay).toFixed(3)}`;
  console.log(`${kind.padEnd(8)}  this: ${line(sides.a)}   other: ${line(sides.b)}   median this/other ${(at(sides.a.js[kind], 0.5) / at(sides.b.js[kind], 0.5)).toFixed(3)}`);
}
