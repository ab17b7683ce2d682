/**
 * The keyword ranker alone, this checkout's `KeywordIndex` against another's, in one process
 * (figures, not asserts): the texts of perf/retrieval.ts (same seeds) tokenized as the engine
 * stores them, then the same queries (2–4 words of stored texts) asked of each alternately, the
 * best 50 by BM25 (a search's candidates at LIMIT 10): p50/p95 per index, and whether both
 * returned the same ids and scores for every query.
 *
 * Run: T2M_KEYWORDS_B=/path/to/other/src/execute/keywords.ts nice npx tsx perf/keyword-ab.ts [size] [queries]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { KeywordIndex } from '../src/execute/keywords.js';
import { tokens } from '../src/execute/text.js';
import { rng, zipfVocabulary } from './workload.js';

const other = process.env.T2M_KEYWORDS_B;
if (!other) {
  console.error('set T2M_KEYWORDS_B to the other keywords.ts');
  process.exit(2);
}
const B: { KeywordIndex: typeof KeywordIndex } = await import(pathToFileURL(resolve(other)).href);
const SIZE = Number(process.argv[2] ?? 100_000);
const QUERIES = Number(process.argv[3] ?? 600);
const WARMUP = 20;
const BEST = 50;

// The corpus of perf/retrieval.ts: the same draws from the same generator (text, then tag and day).
const vocabulary = zipfVocabulary();
const r = rng(7);
const texts: string[] = [];
const a = new KeywordIndex();
const b = new B.KeywordIndex();
for (let i = 0; i < SIZE; i++) {
  const text = vocabulary.text(r, 8 + Math.floor(r() * 18));
  texts.push(text);
  const tag = `tag${Math.floor(r() * 100)}`;
  r();
  const searchText = tokens(`${text} ${tag}`).join(' ');
  a.set(i + 1, searchText);
  b.set(i + 1, searchText);
}
const qr = rng(SIZE);
const queries = Array.from({ length: WARMUP + QUERIES }, () => {
  const words = texts[Math.floor(qr() * texts.length)].split(' ');
  const n = 2 + Math.floor(qr() * 3);
  const start = Math.floor(qr() * Math.max(1, words.length - n));
  return [...new Set(tokens(words.slice(start, start + n).join(' ')))];
});
const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ta: number[] = [], tb: number[] = [];
let same = 0;
for (const [i, q] of queries.entries()) {
  const first = i % 2 ? a : b;
  let t = performance.now();
  const x = first.search(q, BEST);
  const dx = performance.now() - t;
  const second = first === a ? b : a;
  t = performance.now();
  const y = second.search(q, BEST);
  const dy = performance.now() - t;
  if (i < WARMUP) continue;
  (first === a ? ta : tb).push(dx);
  (first === a ? tb : ta).push(dy);
  if (JSON.stringify(x) === JSON.stringify(y)) same++;
}
console.log(`keyword ranker, ${SIZE.toLocaleString('en')} records, best ${BEST}, ${QUERIES} queries after ${WARMUP} warm-ups`);
console.log(`  this   p50 ${pct(ta, 0.5).toFixed(2)} ms  p95 ${pct(ta, 0.95).toFixed(2)} ms`);
console.log(`  other  p50 ${pct(tb, 0.5).toFixed(2)} ms  p95 ${pct(tb, 0.95).toFixed(2)} ms`);
console.log(`  ratio  p50 ×${(pct(ta, 0.5) / pct(tb, 0.5)).toFixed(2)}  p95 ×${(pct(ta, 0.95) / pct(tb, 0.95)).toFixed(2)}; same ids and scores on ${same} / ${QUERIES} queries`);
