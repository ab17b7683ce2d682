/**
 * Where a search's time goes (figures, not asserts): the corpus and queries of perf/retrieval.ts
 * (same seeds), and for each size the p50/p95 of each phase of `RETRIEVE WHERE search "…" LIMIT 10`
 * over the timed queries: the query's embedding, the keyword ranker (`KeywordIndex.search`), the
 * vector scan (`VectorIndex.nearest`), each kind of SQL statement the search runs (by its text),
 * the garbage collector's pauses inside the query, and the rest (validate, lower, fusion, the
 * engine's fixed cost per statement). A phase's p95 is over all queries, so the p95s do not add up.
 *
 * Run: nice npx tsx perf/retrieval-phases.ts [--sizes 1000,100000] [--queries 400] [--cache-ab 2000,32768]
 *
 * `--cache-ab A,B` (sql.js): after the phases of each size, the same queries asked again in blocks
 * of 50 with SQLite's page cache at A KiB and at B KiB in turn (`PRAGMA cache_size = -KiB`, each
 * block after 10 warm-ups), and each setting's total and SQL p50/p95 over its blocks (one run, so the
 * ratio is measured under the same load).
 */
import { PerformanceObserver } from 'node:perf_hooks';
import * as engine from '../src/engine/index.js';
import { KeywordIndex } from '../src/retrieve/keywords.js';
import { VectorIndex } from '../src/retrieve/vectors.js';
import * as engine from '../src/index.js';
import { rng, searchCorpus } from './workload.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (arg('--sizes') ?? '1000,100000').split(',').map(Number);
const QUERIES = Number(arg('--queries') ?? 400);
const CACHE_AB = arg('--cache-ab')?.split(',').map(Number);
const WARMUP = 20;
const NOW = '2026-01-01T00:00:00Z';

const { encodeIr, queryOf } = searchCorpus();

// Per-query phase totals, filled by the wrappers below.
let phase: Record<string, number> = {};
const add = (name: string, t: number) => (phase[name] = (phase[name] ?? 0) + t);
function timed<T extends object, K extends keyof T>(target: T, key: K, name: string | ((...args: never[]) => string)) {
  const original = target[key] as unknown as (...args: unknown[]) => unknown;
  (target as Record<K, unknown>)[key] = function (this: unknown, ...args: unknown[]) {
    const t = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      add(typeof name === 'string' ? name : (name as (...a: unknown[]) => string)(...args), performance.now() - t);
    }
  };
}
timed(KeywordIndex.prototype, 'search', 'keywords');
timed(KeywordIndex.prototype, 'searchAmong', 'keywords among');
timed(VectorIndex.prototype, 'nearest', 'vectors');

const sqlKind = (sql: string) =>
  /memory_search_stats/.test(sql) ? 'sql: index counter'
    : /^SELECT "?id"?, "?weight"? FROM/.test(sql) ? 'sql: admit winners'
      : /IN \(SELECT CAST\(value AS INTEGER\)/.test(sql) ? 'sql: read results'
        : `sql: ${sql.trim().split(/\s+/).slice(0, 2).join(' ')}`;

const gcs: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ start: e.startTime, end: e.startTime + e.duration });
}).observe({ entryTypes: ['gc'] });

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;

const store = await engine.createStore();
timed(store.driver as unknown as Record<string, unknown>, 'all' as never, ((sql: string) => sqlKind(sql)) as never);
timed(store.embedder as unknown as Record<string, unknown>, 'embed' as never, 'embed');
let have = 0;
const r = rng(7);
console.log(`retrieval phases: RETRIEVE search LIMIT 10, ${QUERIES} queries after ${WARMUP} warm-ups; ms p50 / p95 (mean)`);
for (const size of SIZES) {
  while (have < size) {
    const batch = Array.from({ length: Math.min(1000, size - have) }, (_, k) => encodeIr(have + k, r));
    const res = engine.run(store, batch, { now: NOW });
    if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
    have += batch.length;
  }
  const qr = rng(size);
  const spans: { start: number; end: number; phases: Record<string, number> }[] = [];
  const search = (q: string) => {
    phase = {};
    const start = performance.now();
    const res = engine.run(store, [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: q }, limit: 10 } }, args: {} }], { now: NOW });
    const end = performance.now();
    if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
    return { start, end, phases: phase };
  };
  search(queryOf(qr));
  for (let i = 0; i < WARMUP; i++) search(queryOf(qr));
  gcs.length = 0;
  for (let i = 0; i < QUERIES; i++) spans.push(search(queryOf(qr)));
  await new Promise((done) => setTimeout(done, 50)); // let the GC observer deliver
  const names = [...new Set(spans.flatMap((s) => Object.keys(s.phases)))].sort();
  const rows: [string, number[]][] = [['total', spans.map((s) => s.end - s.start)]];
  for (const n of names) rows.push([n, spans.map((s) => s.phases[n] ?? 0)]);
  const gc = spans.map((s) => gcs.reduce((a, g) => a + Math.max(0, Math.min(s.end, g.end) - Math.max(s.start, g.start)), 0));
  rows.push(['gc pauses', gc]);
  rows.push(['rest', spans.map((s) => s.end - s.start - Object.values(s.phases).reduce((a, b) => a + b, 0))]);
  console.log(`\n${size.toLocaleString('en')} memories`);
  for (const [n, xs] of rows) {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`  ${n.padEnd(22)} ${pct(xs, 0.5).toFixed(2).padStart(7)} / ${pct(xs, 0.95).toFixed(2).padStart(7)}  (${mean.toFixed(2)})`);
  }
  // The slowest 5% of queries: what their time was spent on (means over them).
  const slow = spans.map((s, i) => ({ s, i })).sort((a, b) => (b.s.end - b.s.start) - (a.s.end - a.s.start)).slice(0, Math.ceil(QUERIES / 20));
  const share: Record<string, number> = {};
  for (const { s, i } of slow) {
    for (const [n, t] of Object.entries(s.phases)) share[n] = (share[n] ?? 0) + t / slow.length;
    share['gc pauses'] = (share['gc pauses'] ?? 0) + gc[i] / slow.length;
    share.total = (share.total ?? 0) + (s.end - s.start) / slow.length;
  }
  console.log(`  slowest 5%: ${Object.entries(share).map(([n, t]) => `${n} ${t.toFixed(2)}`).join(', ')}`);
  if (CACHE_AB) {
    const db = (store.driver as unknown as { db: { run(sql: string): void; exec(sql: string): { values: unknown[][] }[] } }).db;
    const pages = Number(db.exec('PRAGMA page_count')[0].values[0][0]) * Number(db.exec('PRAGMA page_size')[0].values[0][0]);
    const by = new Map<number, { total: number[]; sql: number[] }>(CACHE_AB.map((k) => [k, { total: [], sql: [] }]));
    for (let block = 0; block < Math.max(2, Math.ceil(QUERIES / 50)); block++) {
      for (const kib of CACHE_AB) {
        db.run(`PRAGMA cache_size = -${kib}`);
        for (let i = 0; i < 10; i++) search(queryOf(qr));
        const got = by.get(kib)!;
        for (let i = 0; i < 50; i++) {
          const s = search(queryOf(qr));
          got.total.push(s.end - s.start);
          got.sql.push(Object.entries(s.phases).filter(([n]) => n.startsWith('sql:')).reduce((a, [, t]) => a + t, 0));
        }
      }
    }
    console.log(`  page cache A/B (database ${(pages / 2 ** 20).toFixed(1)} MiB):`);
    for (const [kib, { total, sql }] of by)
      console.log(`    ${String(kib).padStart(6)} KiB  total ${pct(total, 0.5).toFixed(2)} / ${pct(total, 0.95).toFixed(2)}  sql ${pct(sql, 0.5).toFixed(2)} / ${pct(sql, 0.95).toFixed(2)}  (${total.length} queries)`);
  }
}
