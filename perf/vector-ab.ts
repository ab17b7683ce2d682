/**
 * The vector scan alone, this checkout's `VectorIndex` against another's, in one process (figures,
 * not asserts): the texts of perf/retrieval.ts (same seeds) embedded by the offline embedder into
 * both indexes, then the same queries (2–4 words of stored texts) asked of each alternately, the
 * nearest 50 (a search's candidates at LIMIT 10): p50/p95 per index, and whether both returned the
 * same ids and scores for every query.
 *
 * Run: T2M_VECTORS_B=/path/to/other/src/execute/vectors.ts nice npx tsx perf/vector-ab.ts [size] [queries]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NgramEmbedder } from '../src/execute/text.js';
import { VectorIndex } from '../src/execute/vectors.js';
import { rng, zipfVocabulary } from './workload.js';

const other = process.env.T2M_VECTORS_B;
if (!other) {
  console.error('set T2M_VECTORS_B to the other vectors.ts');
  process.exit(2);
}
const B: { VectorIndex: typeof VectorIndex } = await import(pathToFileURL(resolve(other)).href);
const SIZE = Number(process.argv[2] ?? 100_000);
const QUERIES = Number(process.argv[3] ?? 600);
const WARMUP = 20;
const NEAREST = 50;

// The corpus of perf/retrieval.ts: the same draws from the same generator (text, then tag and day).
const vocabulary = zipfVocabulary();
const r = rng(7);
const texts: string[] = [];
for (let i = 0; i < SIZE; i++) {
  texts.push(vocabulary.text(r, 8 + Math.floor(r() * 18)));
  r();
  r();
}
const embedder = new NgramEmbedder();
const a = new VectorIndex(embedder.model, embedder.dimensions);
const b = new B.VectorIndex(embedder.model, embedder.dimensions);
texts.forEach((t, i) => {
  const v = embedder.embed(t);
  a.set(i + 1, v);
  b.set(i + 1, v);
});
const qr = rng(SIZE);
const queries = Array.from({ length: WARMUP + QUERIES }, () => {
  const words = texts[Math.floor(qr() * texts.length)].split(' ');
  const n = 2 + Math.floor(qr() * 3);
  const start = Math.floor(qr() * Math.max(1, words.length - n));
  return embedder.embed(words.slice(start, start + n).join(' '));
});
const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ta: number[] = [], tb: number[] = [];
let same = 0;
for (const [i, q] of queries.entries()) {
  // Alternate which goes first, so that neither always follows the other's cache traffic.
  const first = i % 2 ? a : b;
  let t = performance.now();
  const x = first.nearest(q, NEAREST);
  const dx = performance.now() - t;
  const second = first === a ? b : a;
  t = performance.now();
  const y = second.nearest(q, NEAREST);
  const dy = performance.now() - t;
  if (i < WARMUP) continue;
  (first === a ? ta : tb).push(dx);
  (first === a ? tb : ta).push(dy);
  if (JSON.stringify(x) === JSON.stringify(y)) same++;
}
console.log(`vector scan, ${SIZE.toLocaleString('en')} vectors, nearest ${NEAREST}, ${QUERIES} queries after ${WARMUP} warm-ups`);
console.log(`  this   p50 ${pct(ta, 0.5).toFixed(2)} ms  p95 ${pct(ta, 0.95).toFixed(2)} ms`);
console.log(`  other  p50 ${pct(tb, 0.5).toFixed(2)} ms  p95 ${pct(tb, 0.95).toFixed(2)} ms`);
console.log(`  ratio  p50 ×${(pct(ta, 0.5) / pct(tb, 0.5)).toFixed(2)}  p95 ×${(pct(ta, 0.95) / pct(tb, 0.95)).toFixed(2)}; same ids and scores on ${same} / ${QUERIES} queries`);
