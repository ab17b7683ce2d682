/**
 * Chinese word segmentation against character n-grams, on the Chinese conversations of the
 * retrieval eval (eval/conversations.ts, the same seeds as eval/retrieval.ts), or with
 * `--locomo <file>` on the conversations of a LoCoMo-format file (eval/locomo.ts: each turn
 * `<speaker>: <text>`, evidence recall of each question with evidence; e.g. a Chinese translation).
 *
 * For each way of turning a CJK run into search tokens — character bigrams (the engine's
 * before), single characters, characters + bigrams (the engine's now), the same without frequent
 * function characters (的 了 是 …) as single characters, jieba's search mode (`cut_for_search`, jieba-wasm), and jieba's
 * words + bigrams — it scores every question with BM25 (k1 1.2, b 0.75, the engine's formula and
 * candidate count), with the offline embedder (its CJK features: character n-grams, plus jieba's
 * words for the jieba rows) and fused (the engine's `fuse` and neighbour `context`, α 0.5), and reports
 * evidence Recall@5 / @10 and MRR. The scoring is a copy of the engine's so that the tokenizer
 * can be swapped; the unigrams+bigrams rows must equal what the engine
 * itself returns (checked below).
 * Then tokenization speed (characters/s) and what each costs an Encode.
 *
 * jieba is not a dependency (spec/retrieval.md says why); to measure it, install jieba-wasm or
 * @node-rs/jieba outside the project and point T2M_JIEBA at the package:
 *   (cd /tmp/jieba && npm init -y && npm install @node-rs/jieba@2.0.3)
 *   T2M_JIEBA=/tmp/jieba/node_modules/@node-rs/jieba npm run eval:segmentation [-- --split dev | --locomo <file>]
 * (jieba-wasm@2.4.0: T2M_JIEBA=/tmp/jieba/node_modules/jieba-wasm). Without it the jieba rows are left out.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { run } from '../src/engine/index.js';
import { createStore } from '../src/dialect/sqlite/store.js';
import { cjkBigrams, cjkCharNgrams, cjkUnigramsBigrams, NgramEmbedder, tokens, type CjkFeatures, type CjkSegmenter } from '../src/text/text.js';
import { conversation, ZH } from './conversations.js';
import { readLocomo } from './locomo.js';
import { context, fuse as engineFuse } from '../src/retrieve/search.js';
import { existsSync } from 'node:fs';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TURNS = arg('turns', 300);
const CONVERSATIONS = arg('conversations', 4);
const ALPHA = arg('alpha', 0.5);
const CANDIDATES = 50;
const SPLIT = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : 'test';
/** The retrieval eval's Chinese splits (eval/retrieval.ts): test 2000…, dev 6000…. */
const seeds = Array.from({ length: CONVERSATIONS }, (_, i) => (SPLIT === 'dev' ? 6000 : 2000) + i);

interface Jieba { cut_for_search(text: string, hmm?: boolean): string[] }
let jieba: Jieba | null = null;
let jiebaName = '';
const JIEBA = process.env.T2M_JIEBA;
if (JIEBA && existsSync(join(JIEBA, 'pkg/nodejs/jieba_rs_wasm.js'))) {
  jieba = (await import(pathToFileURL(join(JIEBA, 'pkg/nodejs/jieba_rs_wasm.js')).href)) as Jieba;
  jiebaName = 'jieba-wasm';
} else if (JIEBA) {
  // @node-rs/jieba: a native addon with the same dictionary and search mode.
  const { Jieba: Native } = (await import(pathToFileURL(join(JIEBA, 'index.js')).href)) as { Jieba: { withDict(d: Uint8Array): { cutForSearch(t: string, hmm?: boolean): string[] } } };
  const { dict } = (await import(pathToFileURL(join(JIEBA, 'dict.js')).href)) as { dict: Uint8Array };
  const native = Native.withDict(dict);
  jieba = { cut_for_search: (t, hmm) => native.cutForSearch(t, hmm) };
  jiebaName = '@node-rs/jieba';
}
const LOCOMO = process.argv.includes('--locomo') ? process.argv[process.argv.indexOf('--locomo') + 1] : undefined;

const jiebaWords: CjkSegmenter = (run) => jieba!.cut_for_search(run, true).filter((w) => /[\p{L}\p{N}]/u.test(w));
const jiebaFeatures: CjkFeatures = (run, add) => {
  cjkCharNgrams(run, add);
  for (const w of jiebaWords(run)) if ([...w].length > 2) add(w, 1);
};

/** Frequent Chinese function characters, for the variant that leaves them out as single characters. */
const STOPC = new Set([...'的了是在我你他她它们这那和与就也都吗呢吧啊呀哦嗯个之而或及其把被给着很还又么']);
interface Variant { name: string; segment: CjkSegmenter; embedder: NgramEmbedder }
const variants: Variant[] = [
  { name: 'bigrams', segment: cjkBigrams, embedder: new NgramEmbedder() },
  { name: 'unigrams', segment: (run) => [...run], embedder: new NgramEmbedder() },
  { name: 'unigrams+bigrams', segment: cjkUnigramsBigrams, embedder: new NgramEmbedder() },
  { name: 'uni-stop+bigrams', segment: (run) => { const c = [...run]; return c.length === 1 ? c : [...c.filter((x) => !STOPC.has(x)), ...cjkBigrams(run)]; }, embedder: new NgramEmbedder() },
];
if (jieba) {
  variants.push({ name: 'jieba search', segment: jiebaWords, embedder: new NgramEmbedder(256, jiebaFeatures) });
  variants.push({ name: 'jieba + bigrams', segment: (run) => [...jiebaWords(run), ...cjkBigrams(run)], embedder: new NgramEmbedder(256, jiebaFeatures) });
}

/** BM25 as compileKeywordSearch computes it: the n best (id, score), ties by id. */
function bm25(docs: string[][], query: string[], n: number): { id: number; score: number }[] {
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = docs.reduce((a, d) => a + d.length, 0) / docs.length;
  const terms = [...new Set(query)].filter((t) => df.has(t));
  const out: { id: number; score: number }[] = [];
  docs.forEach((d, id) => {
    let s = 0, hit = false;
    for (const t of terms) {
      const tf = d.filter((x) => x === t).length;
      if (!tf) continue;
      hit = true;
      const idf = Math.log(1 + (docs.length - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      s += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avg));
    }
    if (hit) out.push({ id, score: s });
  });
  return out.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, n);
}

function nearest(vecs: Float32Array[], q: Float32Array, n: number): { id: number; score: number }[] {
  return vecs.map((v, id) => {
    let s = 0;
    for (let i = 0; i < v.length; i++) s += v[i] * q[i];
    return { id, score: s };
  }).sort((a, b) => b.score - a.score || a.id - b.id).slice(0, n);
}

/** The engine's fusion and neighbour context (src/retrieve/search.ts) over ids 0 … count − 1, the order of writing; every record of weight 0.5. */
function fuse(kw: { id: number; score: number }[], vec: { id: number; score: number }[], alpha: number, count: number): number[] {
  const parts = engineFuse(kw, vec.filter((s) => s.score > 0), alpha);
  const lent = alpha > 0 && alpha < 1 ? context(parts, (id, steps) => (id + steps >= 0 && id + steps < count ? id + steps : null)) : new Map<number, number>();
  const f = new Map<number, number>();
  for (const [id, e] of parts) f.set(id, e.fused + (lent.get(id) ?? 0));
  for (const [id, x] of lent) if (!parts.has(id)) f.set(id, x);
  return [...f].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

interface Scores { r5: number; r10: number; mrr: number; n: number }
const pct = (x: number, n: number) => ((100 * x) / n).toFixed(1).padStart(6);

console.log(`segmentation eval, ${LOCOMO ? LOCOMO : `${SPLIT} split: ${CONVERSATIONS} Chinese conversations × ${TURNS} turns`}, α ${ALPHA}${jieba ? `, ${jiebaName}` : ' (jieba rows left out: T2M_JIEBA not set)'}`);
console.log(`${'tokens'.padEnd(18)} ${'ranker / questions'.padEnd(18)} ${'R@5'.padStart(6)} ${'R@10'.padStart(6)} ${'MRR'.padStart(6)} ${'n'.padStart(4)}`);
const convs = LOCOMO
  ? readLocomo(LOCOMO).map((c) => {
    const at = new Map(c.turns.map((t, i) => [t.dia, i]));
    return { turns: c.turns.map((t) => t.text), questions: c.questions.map((q) => ({ text: q.text, evidence: q.evidence.map((d) => at.get(d)!), paraphrase: false })) };
  })
  : seeds.map((seed) => conversation(ZH, seed, TURNS));
const summary: Record<string, Record<string, Scores>> = {};
for (const v of variants) {
  const totals: Record<string, Scores> = {};
  for (const { turns, questions } of convs) {
    const docs = turns.map((t) => tokens(t, v.segment));
    const vecs = turns.map((t) => v.embedder.embed(t));
    for (const q of questions) {
      const kw = bm25(docs, tokens(q.text, v.segment), CANDIDATES);
      const vec = nearest(vecs, v.embedder.embed(q.text), CANDIDATES);
      // The ten a `LIMIT 10` search returns.
      const ranked = { bm25: kw.map((s) => s.id).slice(0, 10), vector: vec.map((s) => s.id).slice(0, 10), fused: fuse(kw, vec, ALPHA, turns.length).slice(0, 10) };
      const want = new Set(q.evidence);
      for (const [ranker, got] of Object.entries(ranked)) {
        for (const subset of ['all', q.paraphrase ? 'paraphrase' : 'overlap']) {
          const t = (totals[`${ranker} ${subset}`] ??= { r5: 0, r10: 0, mrr: 0, n: 0 });
          t.n++;
          t.r5 += got.slice(0, 5).filter((id) => want.has(id)).length / want.size;
          t.r10 += got.slice(0, 10).filter((id) => want.has(id)).length / want.size;
          const first = got.findIndex((id) => want.has(id));
          t.mrr += first < 0 ? 0 : 1 / (first + 1);
        }
      }
    }
  }
  summary[v.name] = totals;
  for (const [key, t] of Object.entries(totals).sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${v.name.padEnd(18)} ${key.padEnd(18)} ${pct(t.r5, t.n)} ${pct(t.r10, t.n)} ${(t.mrr / t.n).toFixed(3).padStart(6)} ${String(t.n).padStart(4)}`);
  }
}

// The copy of the engine's scoring must give the engine's figures for the engine's tokens (unigrams + bigrams).
{
  const t = { r5: 0, r10: 0, mrr: 0, n: 0 };
  for (const [seed, { turns, questions }] of convs.map((c, i) => [LOCOMO ? i : seeds[i], c] as const)) {
    const store = await createStore();
    const enc = run(store, turns.map((text) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text } } })), { now: '2026-01-01T00:00:00Z' });
    if (!enc.ok) throw new Error(`seed ${seed}: ${JSON.stringify(enc.diagnostics[0])}`);
    const idOf = enc.results.map((x) => x.ids[0]);
    for (const q of questions) {
      const want = new Set(q.evidence.map((i) => idOf[i]));
      const res = run(store, [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: q.text }, limit: 10, overrides: { alpha: ALPHA } } }, args: { include: ['id'] } }], { now: '2026-01-01T00:00:00Z' });
      if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
      const got = res.results[0].ids;
      t.n++;
      t.r5 += got.slice(0, 5).filter((id) => want.has(id)).length / want.size;
      t.r10 += got.slice(0, 10).filter((id) => want.has(id)).length / want.size;
      const first = got.findIndex((id) => want.has(id));
      t.mrr += first < 0 ? 0 : 1 / (first + 1);
    }
    store.close();
  }
  const mine = summary['unigrams+bigrams']['fused all'];
  const same = pct(t.r5, t.n) === pct(mine.r5, mine.n) && pct(t.r10, t.n) === pct(mine.r10, mine.n) && (t.mrr / t.n).toFixed(3) === (mine.mrr / mine.n).toFixed(3);
  console.log(`engine (its tokens: unigrams+bigrams, fused): R@5 ${pct(t.r5, t.n).trim()} R@10 ${pct(t.r10, t.n).trim()} MRR ${(t.mrr / t.n).toFixed(3)} — ${same ? 'same as the copy above' : 'DIFFERS from the copy above'}`);
  if (!same) process.exitCode = 1;
}

// Speed: characters tokenized per second, and the share of an Encode it would take.
const text = convs.flatMap((c) => c.turns) as string[];
const chars = text.reduce((a, t) => a + t.length, 0);
const time = (f: () => void, min = 300) => {
  f();
  let reps = 0;
  const t0 = performance.now();
  do { f(); reps++; } while (performance.now() - t0 < min);
  return (performance.now() - t0) / reps;
};
const encodeMs = (() => {
  let store: Awaited<ReturnType<typeof createStore>> | undefined;
  const ops = text.map((t) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t } } }));
  return async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      store = await createStore();
      const t0 = performance.now();
      run(store, ops, { now: '2026-01-01T00:00:00Z' });
      times.push(performance.now() - t0);
      store.close();
    }
    return Math.min(...times) / text.length;
  };
})();
const perRecord = await encodeMs();
console.log(`\nspeed on ${text.length} turns (${chars} characters); an Encode through the engine takes ${(perRecord * 1000).toFixed(0)} µs per turn (the engine's tokens, best of 3)`);
// Each measured twice, alternating, the faster kept (the machine is shared).
const speeds = variants.map(() => ({ tok: Infinity, emb: Infinity }));
for (let round = 0; round < 2; round++) {
  variants.forEach((v, i) => {
    speeds[i].tok = Math.min(speeds[i].tok, time(() => { for (const t of text) tokens(t, v.segment); }) / text.length);
    speeds[i].emb = Math.min(speeds[i].emb, time(() => { for (const t of text) v.embedder.embed(t); }) / text.length);
  });
}
variants.forEach((v, i) => {
  const { tok, emb } = speeds[i];
  const projected = perRecord / (perRecord + (tok - speeds[0].tok) + (emb - speeds[0].emb));
  console.log(`${v.name.padEnd(18)} tokens ${((chars / text.length / tok) * 1000 / 1e6).toFixed(2).padStart(6)} M chars/s (${(tok * 1000).toFixed(1)} µs/turn), embed ${(emb * 1000).toFixed(1)} µs/turn; encode throughput ×${projected.toFixed(2)} of bigrams'`);
});
