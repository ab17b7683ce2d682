/**
 * Encode throughput, this engine against another checkout's, in one process (figures, not
 * asserts): the same scripts of 1,000 Encodes (the Zipf corpus of perf/retrieval.ts) go
 * alternately into a store of each engine, after two warm-up rounds, so machine load hits both
 * alike. Target (issue 10): this engine ≥ 0.7 × the engine before retrieval.
 *
 * Run: T2M_ENGINE_B=/path/to/other/checkout/src/index.ts npx tsx perf/encode-ab.ts [rounds]
 * `T2M_ENGINE_B=one-at-a-time` measures this engine against itself with `batch: false` (each
 * Encode of a script executed on its own instead of in runs, spec/semantics.md "Runs of Encodes").
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rng, zipfVocabulary } from './workload.js';

type Engine = typeof import('../src/index.js');
const other = process.env.T2M_ENGINE_B;
if (!other) {
  console.error('set T2M_ENGINE_B to the other engine (…/src/index.ts)');
  process.exit(2);
}
const A: Engine = await import('../src/index.js');
const single = other === 'one-at-a-time';
const B: Engine = single ? A : await import(pathToFileURL(resolve(other)).href);
const ROUNDS = Number(process.argv[2] ?? 20);
const NOW = '2026-01-01T00:00:00Z';

// The corpus of perf/retrieval.ts: 5,000 made-up words, Zipf-distributed, 8–25 per record.
const vocabulary = zipfVocabulary();
function encodeIr(r: () => number) {
  const text = vocabulary.text(r, 8 + Math.floor(r() * 18));
  const day = Math.floor(r() * 365);
  return {
    stage: 'ENC', op: 'Encode',
    args: { payload: { text }, type: 'note', tags: [`tag${Math.floor(r() * 100)}`], time: new Date(Date.UTC(2025, 0, 1) + day * 86_400_000).toISOString().slice(0, 19) + 'Z' },
  };
}

const stores = { a: await A.createStore(), b: await B.createStore() };
const r = rng(7);
const batches = Array.from({ length: ROUNDS + 2 }, () => Array.from({ length: 1000 }, () => encodeIr(r)));
const ms = { a: 0, b: 0 };
for (const [i, batch] of batches.entries()) {
  for (const name of i % 2 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
    const t = performance.now();
    const res = (name === 'a' ? A : B).run(stores[name] as never, batch, { now: NOW, ...(single && name === 'b' ? { batch: false } : {}) });
    if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
    if (i >= 2) ms[name] += performance.now() - t;
  }
}
const rate = (t: number) => (ROUNDS * 1000) / (t / 1000);
console.log(`encode A/B: ${ROUNDS} × 1,000 Encodes each, alternating, after 2 warm-up rounds`);
console.log(`this engine ${rate(ms.a).toFixed(0)}/s, ${other} ${rate(ms.b).toFixed(0)}/s: ×${(rate(ms.a) / rate(ms.b)).toFixed(2)} (target ≥ ×0.7 of the engine before retrieval)`);
