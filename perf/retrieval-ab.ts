/**
 * Search speed, this engine against another checkout's, in one process (figures, not asserts):
 * the corpus and queries of perf/retrieval.ts go into a store of each engine, and at each size the
 * same `RETRIEVE WHERE search "…" LIMIT 10` queries are asked of both alternately (after warm-ups),
 * so machine load hits both alike: p50/p95 per engine and size, and each engine's p95 ratio of the
 * largest size to the smallest (issue 10: ≤ ×3).
 *
 * Run: T2M_ENGINE_B=/path/to/other/src/index.ts nice npx tsx perf/retrieval-ab.ts [--sizes 1000,100000] [--queries 200]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rng, searchCorpus } from './workload.js';

type Engine = typeof import('../src/index.js');
const other = process.env.T2M_ENGINE_B;
if (!other) {
  console.error('set T2M_ENGINE_B to the other engine (…/src/index.ts)');
  process.exit(2);
}
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SIZES = (arg('--sizes') ?? '1000,100000').split(',').map(Number);
const QUERIES = Number(arg('--queries') ?? 200);
const WARMUP = 20;
const NOW = '2026-01-01T00:00:00Z';
const A: Engine = await import('../src/index.js');
const B: Engine = await import(pathToFileURL(resolve(other)).href);

const { encodeIr, queryOf } = searchCorpus();
const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

const engines = [{ name: 'this', e: A, store: await A.createStore(), p95: [] as number[] }, { name: 'other', e: B, store: await B.createStore(), p95: [] as number[] }];
let have = 0;
const r = rng(7);
console.log(`retrieval A/B: this engine against ${other}; RETRIEVE search LIMIT 10, ${QUERIES} queries after ${WARMUP} warm-ups, alternating`);
for (const size of SIZES) {
  while (have < size) {
    const batch = Array.from({ length: Math.min(1000, size - have) }, (_, k) => encodeIr(have + k, r));
    for (const { e, store } of engines) {
      const res = e.run(store as never, batch, { now: NOW });
      if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
    }
    have += batch.length;
  }
  const qr = rng(size);
  const queries = Array.from({ length: 1 + WARMUP + QUERIES }, () => queryOf(qr));
  const times = engines.map(() => [] as number[]);
  let same = 0;
  const differ: string[] = [];
  for (const [i, q] of queries.entries()) {
    const ids: string[] = [];
    const explained: string[] = [];
    for (let k = 0; k < 2; k++) {
      const which = (i + k) % 2; // alternate which engine goes first
      const { e, store } = engines[which];
      const t = performance.now();
      const res = e.run(store as never, [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: q }, limit: 10 } }, args: {} }], { now: NOW });
      const d = performance.now() - t;
      if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
      ids[which] = JSON.stringify(res.results[0].ids);
      explained[which] = JSON.stringify(res.results[0].ids.map((id) => [id, res.results[0].explain?.[id]?.score]));
      if (i > WARMUP) times[which].push(d);
    }
    if (i > WARMUP && ids[0] === ids[1]) same++;
    else if (i > WARMUP) differ.push(`  "${q}": this ${explained[0]}\n  ${' '.repeat(q.length + 2)}  other ${explained[1]}`);
  }
  for (const [k, en] of engines.entries()) en.p95.push(pct(times[k], 0.95));
  if (process.argv.includes('--show')) for (const d of differ) console.log(d);
  console.log(`${size.toLocaleString('en').padStart(8)}: ` + engines.map((en, k) => `${en.name} p50 ${pct(times[k], 0.5).toFixed(2)} p95 ${pct(times[k], 0.95).toFixed(2)} ms`).join(' | ') + ` | same results ${same} / ${QUERIES}`);
}
if (SIZES.length > 1) console.log(engines.map((en) => `${en.name}: p95 ${SIZES.at(-1)} / ${SIZES[0]} ×${(en.p95.at(-1)! / en.p95[0]).toFixed(2)}`).join(' | '));
