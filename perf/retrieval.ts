/**
 * Retrieval speed (figures, not asserts): at 1k, 10k and 100k memories of a synthetic corpus with
 * a Zipf-distributed vocabulary of 5,000 words, built through the engine (`run`, scripts of 1,000
 * Encodes, so encode throughput is measured on the way), it times `RETRIEVE WHERE search "…"
 * LIMIT 10` through the whole pipeline (parse-free: IRs → validate → lower → search → rows):
 * p50/p95 over 200 queries of 2–4 words taken from stored texts, after 20 warm-ups, plus the
 * first search (it loads the in-memory keyword and vector indexes). Targets (issue 10): p95(100k) ≤ 3 × p95(1k) and ≤ 30 ms;
 * encode throughput ≥ 0.7 × the engine before retrieval (`T2M_ENGINE=/path/to/src/index.ts`
 * runs this script against another checkout's engine).
 *
 * Run: npm run perf:retrieval [-- --sizes 1000,10000]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rng, searchCorpus } from './workload.js';

const argIndex = process.argv.indexOf('--sizes');
const SIZES = argIndex > 0 ? process.argv[argIndex + 1].split(',').map(Number) : [1_000, 10_000, 100_000];
const NOW = '2026-01-01T00:00:00Z';
const QUERIES = 200;
const WARMUP = 20;

type Engine = typeof import('../src/index.js');
const enginePath = process.env.T2M_ENGINE;
const engine: Engine = await import(enginePath ? pathToFileURL(resolve(enginePath)).href : '../src/index.js');


const { encodeIr, queryOf } = searchCorpus();

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (x: number) => x.toFixed(1).padStart(8);

console.log(`retrieval perf: ${enginePath ? `engine ${enginePath}` : 'this engine'}; RETRIEVE search LIMIT 10, ${QUERIES} queries after ${WARMUP} warm-ups`);
console.log(`${'memories'.padStart(9)} ${'encode/s'.padStart(9)} ${'first ms'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
const p95s: number[] = [];
const store = await engine.createStore();
let have = 0;
let encodeSeconds = 0;
const r = rng(7);
for (const size of SIZES) {
  const t0 = performance.now();
  while (have < size) {
    const batch = Array.from({ length: Math.min(1000, size - have) }, (_, k) => encodeIr(have + k, r));
    const res = engine.run(store, batch, { now: NOW });
    if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
    have += batch.length;
  }
  encodeSeconds = (performance.now() - t0) / 1000;
  const encodeRate = SIZES.indexOf(size) === 0 ? size / encodeSeconds : (size - SIZES[SIZES.indexOf(size) - 1]) / encodeSeconds;
  const qr = rng(size);
  const search = (q: string) => {
    const t = performance.now();
    const res = engine.run(store, [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: q }, limit: 10 } }, args: {} }], { now: NOW });
    if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
    return performance.now() - t;
  };
  const first = search(queryOf(qr));
  for (let i = 0; i < WARMUP; i++) search(queryOf(qr));
  const times: number[] = [];
  for (let i = 0; i < QUERIES; i++) times.push(search(queryOf(qr)));
  p95s.push(pct(times, 0.95));
  console.log(`${String(size).padStart(9)} ${encodeRate.toFixed(0).padStart(9)} ${ms(first)} ${ms(pct(times, 0.5))} ${ms(pct(times, 0.95))}`);
}
if (p95s.length > 1) console.log(`p95 ratio ${SIZES.at(-1)} / ${SIZES[0]}: ×${(p95s.at(-1)! / p95s[0]).toFixed(2)} (target ≤ ×3; p95 at ${SIZES.at(-1)} target ≤ 30 ms)`);
