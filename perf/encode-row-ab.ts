/**
 * Encode's "x row SQL" (perf/engine-perf.ts) of this engine and of another checkout, in one
 * process (figures, not asserts): the workload of perf/engine-perf.ts (perf/workload.ts, scripts of
 * 1,000 Encodes up to `--size` records) goes batch by batch into a store of each engine (which
 * goes first turns each batch) and, written one row at a time (perf/row-sql.ts), into a third
 * store, so the machine's load hits all three alike. Separate
 * runs of engine-perf.ts move by ±0.3 under load; here both ratios share each moment's load.
 *
 * Run: T2M_ENGINE_B=/path/to/other/checkout/src/index.ts npx tsx perf/encode-row-ab.ts [--size 10000] [--rounds 3] [--db /tmp/x]
 *   --db <path>: store files on the native driver (better-sqlite3); <path>.a, .b, .rows are
 *   created (they must not exist) and removed afterwards. Default: sql.js in memory.
 *   --gc-between (run with `node --expose-gc --import tsx`): a full collection before each step,
 *   outside the clocks, so that no step is charged for collecting another's garbage.
 */
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SqlDriver, SqlStatement, Store } from '../src/engine/index.js';
import { openStoreFile } from '../src/dialect/sqlite/native.js';
import { NOW, encodeIr, rng } from './workload.js';
import { rowStatements } from './row-sql.js';

type Engine = typeof import('../src/index.js');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const other = process.env.T2M_ENGINE_B;
if (!other) {
  console.error('set T2M_ENGINE_B to the other engine (…/src/index.ts)');
  process.exit(2);
}
const A: Engine = await import('../src/index.js');
const B: Engine = await import(pathToFileURL(resolve(other)).href);
const SIZE = Number(arg('--size') ?? 10_000);
const ROUNDS = Number(arg('--rounds') ?? 3);
const DB = arg('--db');
const GC_BETWEEN = process.argv.includes('--gc-between');
const collect = (globalThis as { gc?: () => void }).gc ?? (() => { throw new Error('--gc-between needs node --expose-gc'); });

async function freshStore(engine: Engine, name: string): Promise<{ store: Store; remove: () => void }> {
  if (!DB) {
    const store = await engine.createStore();
    return { store, remove: () => store.close() };
  }
  // Store files are opened by this checkout's opener (the schema is the same on both sides).
  const path = `${DB}.${name}`;
  if (existsSync(path)) throw new Error(`${path} exists; give --db a path whose files may be created`);
  const opened = openStoreFile(path);
  if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
  const store = opened.store;
  return { store, remove: () => { store.close(); for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true }); } };
}

function seconds(f: () => void): number {
  const t = performance.now();
  f();
  return (performance.now() - t) / 1000;
}

/** The row writer: each statement on the driver (prepared, cached by text), in one transaction. */
function rowWriter(driver: SqlDriver, statements: readonly SqlStatement[]): number {
  return seconds(() => {
    driver.begin();
    for (const s of statements) driver.all(s.sql, s.params);
    driver.commit();
  });
}

async function round(size: number, seed: number) {
  const a = await freshStore(A, 'a');
  const b = await freshStore(B, 'b');
  const rows = await freshStore(A, 'rows');
  const rand = rng(seed);
  const t = { a: 0, b: 0, rows: 0 };
  for (let done = 0, k = 0; done < size; done += 1000, k++) {
    const batch = Array.from({ length: Math.min(1000, size - done) }, (_, j) => encodeIr(done + j, rand));
    let sql: SqlStatement[] = [];
    const steps = {
      a: () => {
        t.a += seconds(() => {
          const r = A.run(a.store, batch, { now: NOW });
          if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
          sql = r.results.flatMap((x) => x.sql);
        });
      },
      b: () => {
        t.b += seconds(() => {
          const r = B.run(b.store as never, batch, { now: NOW });
          if (!r.ok) throw new Error(JSON.stringify(r.diagnostics[0]));
          sql = r.results.flatMap((x) => x.sql);
        });
      },
      rows: () => {
        t.rows += rowWriter(rows.store.driver as SqlDriver, rowStatements(sql));
      },
    };
    // The two engines in turn first; then the row writer, from the SQL of the one that ran last
    // (both issue the same statements; the tables are compared by test/engine/encode-runs.test.ts).
    for (const s of k % 2 ? (['a', 'b', 'rows'] as const) : (['b', 'a', 'rows'] as const)) {
      // `--gc-between` (with node --expose-gc): the garbage of the step before is collected outside the clocks.
      if (GC_BETWEEN) collect();
      steps[s]();
    }
  }
  a.remove();
  b.remove();
  rows.remove();
  return t;
}

await round(2000, 1); // warm-up (JIT, wasm)
console.log(`encode x row SQL, ${SIZE.toLocaleString('en-US')} records per round, ${DB ? 'store files (better-sqlite3)' : 'sql.js in memory'}; A = this engine, B = ${other}`);
const ratios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t = await round(SIZE, SIZE + r);
  ratios.push(t.a / t.b);
  console.log(`round ${r + 1}: A ${(SIZE / t.a).toFixed(0)} rec/s x row SQL ${(t.a / t.rows).toFixed(2)} | B ${(SIZE / t.b).toFixed(0)} rec/s x row SQL ${(t.b / t.rows).toFixed(2)} | A/B time ${(t.a / t.b).toFixed(3)}`);
}
ratios.sort((x, y) => x - y);
console.log(`median A/B time ${ratios[Math.floor(ratios.length / 2)].toFixed(3)}`);
