/**
 * Retrieval quality on synthetic long conversations (shipped, deterministic, no external data).
 *
 * A seeded generator writes conversations of TURNS dialogue turns between two speakers, in
 * English and in Chinese: chit-chat fillers, facts planted in 1–3 evidence turns (a first mention
 * and later updates), and near-miss turns that reuse a fact's names in another context. Each fact
 * has a question phrased the way people ask, with synonyms and other word forms than the evidence
 * ("bought" / "purchased", "moving" / "relocate", 买 / 购买), so plain word overlap is not enough.
 * Every turn is stored as one memory (one store per conversation) and every question is run as
 * `RETRIEVE WHERE search "<question>" LIMIT 10` with ALPHA 0 (BM25 alone), 1 (vectors alone)
 * and the default 0.5 (fused). Reported: evidence Recall@5 and @10 (share of a question's
 * evidence turns in the top k, averaged over questions) and MRR (of the first evidence turn).
 *
 * Run: npm run eval:retrieval [-- --turns 300 --conversations 4]
 */
import { createStore, run } from '../src/engine/index.js';
import { conversation, EN, ZH } from './conversations.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TURNS = arg('turns', 300);
const CONVERSATIONS = arg('conversations', 4);
const NOW = '2026-01-01T00:00:00Z';

interface Scores { r5: number; r10: number; mrr: number; n: number }
const zero = (): Scores => ({ r5: 0, r10: 0, mrr: 0, n: 0 });

async function evaluate(lang: typeof EN, seeds: number[]): Promise<Record<string, Scores>> {
  const modes = { bm25: 0, vector: 1, fused: 0.5 } as const;
  const totals: Record<string, Scores> = {};
  for (const seed of seeds) {
    const { turns, questions } = conversation(lang, seed, TURNS);
    const store = await createStore();
    const enc = run(store, turns.map((text) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text } } })), { now: NOW });
    if (!enc.ok) throw new Error(JSON.stringify(enc.diagnostics[0]));
    const idOf = enc.results.map((x) => x.ids[0]);
    for (const q of questions) {
      const want = new Set(q.evidence.map((i) => idOf[i]));
      for (const [mode, alpha] of Object.entries(modes)) {
        const res = run(store, [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: q.text }, limit: 10, overrides: { alpha } } }, args: { include: ['id'] } }], { now: NOW });
        if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
        const got = res.results[0].ids;
        const t = (totals[`${mode} ${q.paraphrase ? 'paraphrase' : 'overlap'}`] ??= zero());
        const all = (totals[`${mode} all`] ??= zero());
        all.n++;
        all.r5 += got.slice(0, 5).filter((id) => want.has(id)).length / want.size;
        all.r10 += got.slice(0, 10).filter((id) => want.has(id)).length / want.size;
        all.mrr += got.findIndex((id) => want.has(id)) < 0 ? 0 : 1 / (got.findIndex((id) => want.has(id)) + 1);
        t.r5 += got.slice(0, 5).filter((id) => want.has(id)).length / want.size;
        t.r10 += got.slice(0, 10).filter((id) => want.has(id)).length / want.size;
        const first = got.findIndex((id) => want.has(id));
        t.mrr += first < 0 ? 0 : 1 / (first + 1);
        t.n++;
      }
    }
    store.close();
  }
  return totals;
}

const pctf = (x: number, n: number) => ((100 * x) / n).toFixed(1).padStart(6);
console.log(`retrieval eval: ${CONVERSATIONS} conversations × ${TURNS} turns per language, RETRIEVE … LIMIT 10`);
console.log(`${'set'.padEnd(8)} ${'ranker / questions'.padEnd(18)} ${'R@5'.padStart(6)} ${'R@10'.padStart(6)} ${'MRR'.padStart(6)} ${'questions'.padStart(9)}`);
for (const [name, lang, base] of [['English', EN, 1000], ['Chinese', ZH, 2000]] as const) {
  const seeds = Array.from({ length: CONVERSATIONS }, (_, i) => base + i);
  const totals = await evaluate(lang, seeds);
  for (const [mode, t] of Object.entries(totals).sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${name.padEnd(8)} ${mode.padEnd(18)} ${pctf(t.r5, t.n)} ${pctf(t.r10, t.n)} ${(t.mrr / t.n).toFixed(3).padStart(6)} ${String(t.n).padStart(9)}`);
  }
}
