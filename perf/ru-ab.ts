/**
 * Filtered retrieve and filtered update against the raw SQL (perf/engine-perf.ts's workload and
 * measure: each statement's pipeline time against replaying the SQL it issued on a second store
 * of the same kind, in the same transactions), for this engine and another checkout's, in one
 * process: the two engines take turns batch by batch, so machine load hits both alike. Figures,
 * not asserts. Times are CPU time (user + system), which a loaded machine disturbs less than wall time.
 *
 * Run: T2M_ENGINE_B=/path/to/other/checkout/src/index.ts npx tsx perf/ru-ab.ts [size] [rounds] [--db <path>]
 *   (sql.js in memory, or with --db store files on better-sqlite3, each engine's own
 *   src/node/sqlite-file.ts: <path>.a, <path>.b and their replays, removed afterwards; each round
 *   is 100 retrieves then 100 updates per engine)
 */
import { SIZE, files, openSide, removeStores, roundsOr } from './ab-engines.js';
import { NOW, filter } from './workload.js';

type Engine = typeof import('../src/index.js');
type Stmt = { sql: string; params: unknown };
const ROUNDS = roundsOr(6);
const BATCH = 100;

// CPU time (user + system) of this process, so that waiting for a core on a loaded machine is not counted.
const seconds = (f: () => void) => {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1e6;
};

interface Side {
  readonly engine: Engine;
  readonly store: Awaited<ReturnType<Engine['createStore']>>;
  readonly replayStore: any;
  readonly replay: any;
  retrieve: { pipeline: number; replay: number };
  update: { pipeline: number; replay: number };
}

async function side(name: 'a' | 'b'): Promise<Side> {
  const { engine, store, replayStore, replay } = await openSide(name);
  return { engine, store, replayStore, replay, retrieve: { pipeline: 0, replay: 0 }, update: { pipeline: 0, replay: 0 } };
}

function batch(s: Side, kind: 'retrieve' | 'update', first: number, counted: boolean): void {
  for (let k = first; k < first + BATCH; k++) {
    const ir = kind === 'retrieve'
      ? { stage: 'RET', op: 'Retrieve', target: { filter: { ...filter(k), limit: 10 } }, args: { include: ['id', 'text', 'tags', 'time'] } }
      : { stage: 'STO', op: 'Update', target: { filter: filter(k + 7, 1) }, args: { set: { type: 'reviewed', weight: 0.8 } } };
    let sql: readonly Stmt[] = [];
    const p = seconds(() => {
      const r = s.engine.run(s.store as never, [ir], { now: NOW });
      if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
      sql = r.results[0].sql;
    });
    const d = seconds(() => {
      s.replay.begin();
      for (const x of sql) s.replay.all(x.sql, x.params);
      s.replay.commit();
    });
    if (counted) {
      s[kind].pipeline += p;
      s[kind].replay += d;
    }
  }
}

const sides = { a: await side('a'), b: await side('b') };
// One warm-up round, then ROUNDS counted, the order of the engines alternating.
for (let round = 0; round <= ROUNDS; round++) {
  for (const kind of ['retrieve', 'update'] as const) {
    for (const name of round % 2 ? (['a', 'b'] as const) : (['b', 'a'] as const)) batch(sides[name], kind, round * BATCH, round > 0);
  }
}
const ratio = (x: { pipeline: number; replay: number }) => x.pipeline / x.replay;
removeStores(Object.values(sides));
console.log(`${SIZE.toLocaleString('en-US')} memories, ${ROUNDS} × ${BATCH} statements per kind and engine, alternating (${files ? 'better-sqlite3 store files' : 'sql.js in memory'})`);
for (const kind of ['retrieve', 'update'] as const) {
  const [a, b] = [sides.a[kind], sides.b[kind]];
  console.log(`${kind.padEnd(8)}  this: ×${ratio(a).toFixed(3)} SQL (${(a.pipeline * 1e6 / (ROUNDS * BATCH)).toFixed(0)} µs CPU/stmt)   other: ×${ratio(b).toFixed(3)} SQL (${(b.pipeline * 1e6 / (ROUNDS * BATCH)).toFixed(0)} µs CPU/stmt)   pipeline time this/other ${(a.pipeline / b.pipeline).toFixed(3)}`);
}
