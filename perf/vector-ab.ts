/**
 * The vector scan alone, this checkout's `VectorIndex` against another's, in one process (figures,
 * not asserts): the texts of perf/retrieval.ts (same seeds) embedded by the offline embedder into
 * both indexes, then the same queries (2–4 words of stored texts) asked of each alternately, the
 * nearest 50 (a search's candidates at LIMIT 10): p50/p95 per index, and whether both returned the
 * same ids and scores for every query.
 *
 * Run: T2M_VECTORS_B=/path/to/other/src/retrieve/vectors.ts nice npx tsx perf/vector-ab.ts [size] [queries]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NgramEmbedder } from '../src/text/text.js';
import { VectorIndex } from '../src/retrieve/vectors.js';
import { alternateAB, rng, searchCorpus } from './workload.js';

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

// The corpus and queries of perf/retrieval.ts (same seeds).
const corpus = searchCorpus();
const r = rng(7);
const embedder = new NgramEmbedder();
const a = new VectorIndex(embedder.model, embedder.dimensions);
const b = new B.VectorIndex(embedder.model, embedder.dimensions);
for (let i = 0; i < SIZE; i++) {
  const { args } = corpus.encodeIr(i, r) as { args: { payload: { text: string } } };
  const v = embedder.embed(args.payload.text);
  a.set(i + 1, v);
  b.set(i + 1, v);
}
const qr = rng(SIZE);
const queries = Array.from({ length: WARMUP + QUERIES }, () => embedder.embed(corpus.queryOf(qr)));
alternateAB(`vector scan, ${SIZE.toLocaleString('en')} vectors, nearest ${NEAREST}`, queries, WARMUP, (q) => a.nearest(q, NEAREST), (q) => b.nearest(q, NEAREST));
