/**
 * Whether block-max pruning could pay for queries of several common words (figures, not asserts):
 * the corpus of perf/retrieval.ts (same seed) at 100k records, and for a few such queries how many
 * blocks of B consecutive records (id order) have a bound — the sum over the query's terms of the
 * largest BM25 weight the term has in the block — at or above the final n-th best score (best 50).
 * Those blocks would have to be scored even if the final n-th best were known from the start.
 *
 * Run: nice npx tsx perf/keyword-bounds.ts
 */
import { KeywordIndex } from '../src/retrieve/keywords.js';
import { BM25 } from '../src/compile/index.js';
import { tokens } from '../src/text/text.js';
import { rng, searchCorpus } from './workload.js';

const SIZE = 100_000;
const corpus = searchCorpus();
const r = rng(7);
const index = new KeywordIndex();
const docs: string[][] = [];
for (let i = 0; i < SIZE; i++) {
  const { args } = corpus.encodeIr(i, r) as { args: { payload: { text: string }; tags: string[] } };
  const searchText = tokens(`${args.payload.text} ${args.tags[0]}`).join(' ');
  index.set(i + 1, searchText);
  docs.push(searchText.split(' '));
}
const { k1, b } = BM25;
const avg = index.meanLength;
const weight = (term: string, tf: number, length: number) => index.idf(term) * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / avg)));
// The slowest queries of perf/keyword-ab.ts: every word in 20k–83k of the 100k records.
for (const q of [['wipiru', 'mehi'], ['valola', 'hiti'], ['wipiru', 'kuvomewi', 'mehi'], ['hiti', 'kuvomewi']]) {
  const floor = index.search(q, 50)[49].score;
  const row = [`${q.map((t) => `${t} (${index.df(t)})`).join(' ')}: n-th best ${floor.toFixed(3)};`];
  for (const size of [64, 128, 512]) {
    let blocks = 0, over = 0;
    for (let start = 0; start < docs.length; start += size) {
      let bound = 0;
      for (const t of q) {
        let most = 0;
        for (let i = start; i < Math.min(docs.length, start + size); i++) {
          const tf = docs[i].filter((x) => x === t).length;
          if (tf) most = Math.max(most, weight(t, tf, docs[i].length));
        }
        bound += most;
      }
      blocks++;
      if (bound >= floor) over++;
    }
    row.push(`blocks of ${size}: ${over} / ${blocks} to score`);
  }
  console.log(`${row[0]} ${row.slice(1).join(', ')}`);
}
