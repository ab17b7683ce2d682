/**
 * The shared benchmark's SQL alone (issue 14): runs the benchmark once on native SQLite in memory
 * as `t2m bench` does, recording every driver call (its SQL and parameters, BEGIN and ROLLBACK
 * around each sample), then replays the calls on fresh in-memory stores, round after round, the
 * variants alternating within each round: what a store-side change (a pragma, an index, a
 * trigger written otherwise) would save, free of the engine's JavaScript. A variant is SQL run on
 * the empty store first, statements separated by `;;` ('' is the store as it is); the
 * replay ignores what the changed store answers, so compare costs, not results.
 *   npx tsx perf/bench-sql.ts [--rounds 7] [--top 12] '' 'DROP TRIGGER memory_tag_insert' …
 * With T2M_SQLITE_FILE_B=<other checkout>/src/node/sqlite-file.ts each variant is also replayed
 * through that checkout's NativeDriver (on a store this checkout prepared), alternating: a
 * driver change's cost on the same calls (`B:` lines).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SqlParams } from '../src/store/driver.js';
import { parseSamples, runBenchmark } from '../src/conformance/index.js';
import { NativeDriver, openMemoryStore } from '../src/dialect/sqlite/native.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const rounds = option('--rounds', 7);
const top = option('--top', 12);
const variants = args.filter((a, i) => !a.startsWith('--') && !['--rounds', '--top'].includes(args[i - 1]));
if (!variants.length) variants.push('');

type Call = readonly [method: 'all' | 'run' | 'exec' | 'begin' | 'commit' | 'rollback', sql: string, params: SqlParams | undefined];
const { samples } = parseSamples(readFileSync('fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl', 'utf8'));
const calls: Call[] = [];
const recording = openMemoryStore();
const driver = recording.driver as NativeDriver;
for (const m of ['all', 'run', 'exec', 'begin', 'commit', 'rollback'] as const) {
  const f = (driver[m] as (sql?: string, params?: SqlParams) => unknown).bind(driver);
  (driver as unknown as Record<string, unknown>)[m] = (sql?: string, params?: SqlParams) => {
    calls.push([m, sql ?? '', params === undefined ? undefined : structuredClone(params)]);
    return f(sql, params);
  };
}
await runBenchmark(samples, { store: recording });
console.log(`${calls.length} driver calls recorded; ${rounds} rounds of ${variants.length} variant(s)`);

type Driver = Pick<NativeDriver, 'all' | 'run' | 'exec' | 'begin' | 'commit' | 'rollback'>;
const otherFile = process.env.T2M_SQLITE_FILE_B;
const Other: (new (db: NativeDriver['db'], location: string) => Driver) | undefined = otherFile
  ? (await import(pathToFileURL(resolve(otherFile)).href)).NativeDriver
  : undefined;
const sides = Other ? variants.flatMap((v) => [v, `B:${v}`]) : variants;
const totals = sides.map(() => [] as number[]);
let bySql = new Map<string, { n: number; ms: number }>();
for (let r = 0; r < rounds; r++) {
  // Each round the other way round, so that no side always runs first.
  for (const v of r % 2 ? [...sides.keys()].reverse() : sides.keys()) {
    const store = openMemoryStore();
    const mine = store.driver as NativeDriver;
    const d: Driver = sides[v].startsWith('B:') ? new Other!(mine.db, ':memory:') : mine;
    const variant = sides[v].startsWith('B:') ? sides[v].slice(2) : sides[v];
    for (const sql of variant.split(';;')) if (sql.trim()) mine.db.exec(sql);
    const per = new Map<string, { n: number; ms: number }>();
    let total = 0;
    for (const [m, sql, params] of calls) {
      const s = performance.now();
      try {
        if (m === 'begin' || m === 'commit' || m === 'rollback') d[m]();
        else d[m](sql, params);
      } catch {
        // An assertion's SQL error is the assertion's failure; a variant may refuse more.
      }
      const ms = performance.now() - s;
      total += ms;
      const e = per.get(`${m} ${sql}`) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += ms;
      per.set(`${m} ${sql}`, e);
    }
    totals[v].push(total);
    if (v === 0) bySql = per;
    store.close();
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [v, text] of sides.entries()) console.log(`${median(totals[v]).toFixed(1).padStart(8)} ms median (min ${Math.min(...totals[v]).toFixed(1)})  ${JSON.stringify(text)}`);
console.log(`\ncostliest SQL of the first variant's last round (count, total ms, µs each):`);
for (const [text, e] of [...bySql].sort((a, b) => b[1].ms - a[1].ms).slice(0, top)) {
  console.log(`${String(e.n).padStart(6)} ${e.ms.toFixed(1).padStart(7)} ${((1000 * e.ms) / e.n).toFixed(1).padStart(7)}  ${text.replace(/\s+/g, ' ').slice(0, 120)}`);
}
