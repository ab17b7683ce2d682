/**
 * Where the shared benchmark's time goes, phase by phase (issue 14): module load, the empty store
 * (native SQLite in memory as `t2m bench` runs it; `--sqljs`: sql.js, its wasm load included), then per sample the prerequisites, the gold statements, the assertions, the
 * ranking check and the transaction around them, each split into the engine's JavaScript and the
 * time in the driver (SQL), with the costliest SQL texts. On a loaded machine compare
 * the shares, not the times.
 *   npx tsx perf/bench-phases.ts [file] [--sql 15] [--sqljs]     (SQLW=3000 prints whole SQL texts)
 */
import type { Io } from '../src/store/io.js';

const t0 = performance.now();
const { readFileSync } = await import('node:fs');
const { parseSamples, runEachIo, evaluateRanking, evaluateAssertion } = await import('../src/conformance/index.js');
const { loadSqlJs, openStore } = await import('../src/dialect/sqlite/store.js');
const { openMemoryStore } = await import('../src/dialect/sqlite/native.js');
const { forgetVectorIndex } = await import('../src/retrieve/vectors.js');
const { parseInstant } = await import('../src/lower/time.js');
const tImport = performance.now();

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--sql') ?? 'fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl';
const topSql = args.includes('--sql') ? Number(args[args.indexOf('--sql') + 1]) : 15;
const sqljs = args.includes('--sqljs');
const { samples } = parseSamples(readFileSync(file, 'utf8'));
const tParse = performance.now();
const SQL = sqljs ? await loadSqlJs() : undefined;
const tWasm = performance.now();
const opened = sqljs ? await openStore({ sqlJs: SQL }) : { ok: true as const, store: openMemoryStore() };
if (!opened.ok) throw new Error('cannot open an empty store');
const store = opened.store;
const tStore = performance.now();

// Statements compiled (the driver keeps them prepared: how often it still compiles one).
const db = (store.driver as unknown as { db: { prepare: (sql: string) => unknown } }).db;
const prepare = db.prepare.bind(db);
let prepared = 0;
let preparing = 0;
db.prepare = (sql: string) => {
  const s = performance.now();
  try {
    return prepare(sql);
  } finally {
    prepared++;
    preparing += performance.now() - s;
  }
};

// Time in the driver per SQL text (transaction control under its own name: begin() runs its SQL through run()).
const driver = store.driver as unknown as Record<'all' | 'run' | 'exec', (sql: string, params?: unknown) => unknown>;
const bySql = new Map<string, { n: number; ms: number }>();
let inDriver = 0;
for (const m of ['all', 'run', 'exec'] as const) {
  const f = driver[m].bind(driver);
  driver[m] = (sql: string, params?: unknown) => {
    const s = performance.now();
    try {
      return f(sql, params);
    } finally {
      const d = performance.now() - s;
      inDriver += d;
      const e = bySql.get(sql) ?? { n: 0, ms: 0 };
      e.n++;
      e.ms += d;
      bySql.set(sql, e);
    }
  };
}

type Phase = 'prerequisites' | 'gold' | 'assertions' | 'ranking' | 'transaction';
const js: Record<Phase, number> = { prerequisites: 0, gold: 0, assertions: 0, ranking: 0, transaction: 0 };
const sql: Record<Phase, number> = { ...js };

/** Drives a part of a sample, its queries answered at once: its JavaScript time and its driver time. */
function timed<T>(phase: Phase, io: Io<T>): T {
  const s = performance.now();
  const d0 = inDriver;
  const value = store.drive(io);
  sql[phase] += inDriver - d0;
  js[phase] += performance.now() - s - (inDriver - d0);
  return value;
}

const tRun = performance.now();
const cpu0 = process.cpuUsage();
for (const sample of samples) {
  // As the runner (src/conformance/index.ts sampleIo): the clock read once per sample, the sample's id as trace id.
  const options = { now: parseInstant(sample.expected.meta.eval_time_utc) ?? sample.expected.meta.eval_time_utc, policy: 'default', impersonate: true, traceId: `bench:${sample.id}` } as const;
  const s = performance.now();
  const d0 = inDriver;
  // As runBenchmark on a shared store, in parts: BEGIN, the parts, ROLLBACK (transactionIo at depth 0).
  store.driver.begin();
  const storeDepth = store as unknown as { depth: number };
  storeDepth.depth = 1;
  timed('prerequisites', runEachIo(store, sample.prerequisites, options));
  const gold = timed('gold', runEachIo(store, sample.schema_list, options));
  const a0 = performance.now();
  const ad = inDriver;
  for (const a of sample.expected.assertions) evaluateAssertion(store, a);
  sql.assertions += inDriver - ad;
  js.assertions += performance.now() - a0 - (inDriver - ad);
  const r0 = performance.now();
  if (sample.expected.ranking) evaluateRanking(gold.results, sample.expected.ranking);
  js.ranking += performance.now() - r0;
  storeDepth.depth = 0;
  store.driver.rollback();
  forgetVectorIndex(store);
  const whole = performance.now() - s;
  const wholeSql = inDriver - d0;
  js.transaction += whole - wholeSql;
  sql.transaction += wholeSql;
}
const cpu = process.cpuUsage(cpu0);
const tEnd = performance.now();
// The transaction's share is what the parts leave.
for (const p of ['prerequisites', 'gold', 'assertions', 'ranking'] as const) {
  js.transaction -= js[p];
  sql.transaction -= sql[p];
}
const ms = (x: number) => `${x.toFixed(0).padStart(6)} ms`;
console.log(`node start → imports done ${ms(tImport)}  (the imports ${ms(tImport - t0)})`);
console.log(`parse samples             ${ms(tParse - tImport)}`);
if (sqljs) console.log(`sql.js wasm load          ${ms(tWasm - tParse)}`);
console.log(`empty store               ${ms(tStore - tWasm)}`);
console.log(`${samples.length} samples              ${ms(tEnd - tRun)} wall, ${ms((cpu.user + cpu.system) / 1000)} CPU; in the driver ${ms(inDriver)}`);
console.log(`                                JS         SQL`);
for (const p of Object.keys(js) as Phase[]) console.log(`  ${p.padEnd(22)} ${ms(js[p])} ${ms(sql[p])}`);
console.log(`statements compiled ${prepared} (${preparing.toFixed(0)} ms)`);
if (topSql > 0) {
  console.log(`\ncostliest SQL (count, total ms, µs each):`);
  for (const [text, e] of [...bySql].sort(process.env.BYCOUNT ? (a, b) => b[1].n - a[1].n : (a, b) => b[1].ms - a[1].ms).slice(0, topSql)) {
    console.log(`${String(e.n).padStart(6)} ${e.ms.toFixed(0).padStart(6)} ${((1000 * e.ms) / e.n).toFixed(0).padStart(5)}  ${text.replace(/\s+/g, ' ').slice(0, Number(process.env.SQLW ?? 140))}`);
  }
}
