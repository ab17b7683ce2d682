/**
 * The keyword ranker alone, this checkout's `KeywordIndex` against another's, in one process
 * (figures, not asserts): the texts of perf/retrieval.ts (same seeds) tokenized as the engine
 * stores them, then the same queries (2–4 words of stored texts) asked of each alternately, the
 * best 50 by BM25 (a search's candidates at LIMIT 10): p50/p95 per index, and whether both
 * returned the same ids and scores for every query.
 *
 * Run: T2M_KEYWORDS_B=/path/to/other/src/retrieve/keywords.ts nice npx tsx perf/keyword-ab.ts [size] [queries]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { KeywordIndex } from '../src/retrieve/keywords.js';
import { tokens } from '../src/text/text.js';
import { alternateAB, rng, searchCorpus } from './workload.js';

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

// The corpus and queries of perf/retrieval.ts (same seeds); each record's search text is its text and tag.
const corpus = searchCorpus();
const r = rng(7);
const a = new KeywordIndex();
const b = new B.KeywordIndex();
for (let i = 0; i < SIZE; i++) {
  const { args } = corpus.encodeIr(i, r) as { args: { payload: { text: string }; tags: string[] } };
  const searchText = tokens(`${args.payload.text} ${args.tags[0]}`).join(' ');
  a.set(i + 1, searchText);
  b.set(i + 1, searchText);
}
const qr = rng(SIZE);
const queries = Array.from({ length: WARMUP + QUERIES }, () => [...new Set(tokens(corpus.queryOf(qr)))]);
alternateAB(`keyword ranker, ${SIZE.toLocaleString('en')} records, best ${BEST}`, queries, WARMUP, (q) => a.search(q, BEST), (q) => b.search(q, BEST));
