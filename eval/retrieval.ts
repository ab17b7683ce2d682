/**
 * Retrieval quality on synthetic long conversations (shipped, deterministic, no external data).
 *
 * A seeded generator (eval/conversations.ts) writes conversations of TURNS dialogue turns between
 * two speakers, in English and in Chinese: chit-chat fillers, facts planted in 1–3 evidence turns
 * (a first mention and later updates), and near-miss turns that reuse a fact's names in another
 * context. Each fact has questions phrased the way people ask, some with synonyms and other word
 * forms than the evidence ("bought" / "purchased", "moving" / "relocate", 买 / 购买).
 * Every turn is stored as one memory (one store per conversation) and every question is run as
 * `RETRIEVE WHERE search "<question>" LIMIT 10` with ALPHA 0 (BM25 alone), 1 (vectors alone)
 * and without ALPHA (fused, the engine's default). Reported: evidence Recall@5 and @10 (share of
 * a question's evidence turns in the top k, averaged over questions) and MRR (of the first
 * evidence turn, 0 when none is in the ten).
 *
 * Two splits, by seed: `test` (English 1000…, Chinese 2000…: the figures in spec/retrieval.md)
 * and `dev` (5000…, 6000…). The default ALPHA is chosen on dev only (`--sweep`: fused scores for
 * ALPHA 0, 0.1 … 1, and the rule's pick); the test split is never used to choose it. Both splits
 * share the fact templates, so dev guards against tuning to names, fillers and placement, not to
 * the phrasing. Then the shared benchmark's ranking checks (`t2m bench`; `--no-bench` skips).
 *
 * Run: npm run eval:retrieval [-- --split test|dev --sweep --turns 300 --conversations 4 --no-bench]
 *
 * `--locomo <file>`: instead, evidence recall @5 / @10 and ms per query on a LoCoMo-format file
 * (eval/locomo.ts), per conversation and over all questions; `--alpha A` asks with that ALPHA;
 * `--db <name>` stores each conversation in that kind of store instead of in-memory SQLite
 * (`pglite:`, `pglite:?keywords=server`, `postgres://…[?keywords=server]`: a fresh schema per conversation, dropped after).
 */
import { readFileSync } from 'node:fs';
import { parseSamples, runBenchmark } from '../src/conformance/index.js';
import { run } from '../src/engine/index.js';
import { createStore } from '../src/dialect/sqlite/store.js';
import { DEFAULT_ALPHA } from '../src/lower/defaults.js';
import { conversation, EN, ZH } from './conversations.js';
import { candidatesOf, CONTEXT_GRID, readLocomo, recallWith, scoreConversation, zeroScores } from './locomo.js';
import { CONTEXT_WEIGHTS } from '../src/retrieve/search.js';
import { openStoreUrl } from '../src/dialect/open-url.js';

const HELP = `usage: npm run eval:retrieval -- [--split test|dev] [--sweep] [--turns N] [--conversations N] [--no-bench]
       npm run eval:retrieval -- --locomo <file> [--alpha A] [--fit] [--db pglite:|postgres://…][?keywords=server]

Without --locomo: the synthetic conversations (eval/conversations.ts), English and Chinese, R@5, R@10
and MRR by ranker, then the shared benchmark's ranking checks.
--locomo <file>: evidence recall @5 / @10 (LoCoMo's retrieval metric) and ms per query on a
LoCoMo-format file: one store per conversation, each turn stored as ENCODE "<speaker>: <text>", each
question with evidence asked as RETRIEVE WHERE search "<question>" LIMIT 10 with the engine's
defaults (--alpha A: with ALPHA A). Progress goes to stderr, the figures to stdout.
--db <name> (with --locomo): each conversation in a fresh store of that kind (default: in-memory
SQLite): pglite: (add ?keywords=server to score keywords in SQL), or postgres://… (a schema per
conversation, dropped afterwards).
--fit (with --locomo): also fit the neighbour-context weights on all conversations but one and
report them on the one held back, for each conversation in turn (spec/retrieval.md).`;

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const TURNS = arg('turns', 300);
const CONVERSATIONS = arg('conversations', 4);
const SPLIT = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : 'test';
if (SPLIT !== 'test' && SPLIT !== 'dev') throw new Error(`--split is test or dev, not ${SPLIT}`);
const SEEDS = { test: { English: 1000, Chinese: 2000 }, dev: { English: 5000, Chinese: 6000 } } as const;
const NOW = '2026-01-01T00:00:00Z';
const BENCH = 'fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl';

interface Scores { r5: number; r10: number; mrr: number; n: number }
const zero = (): Scores => ({ r5: 0, r10: 0, mrr: 0, n: 0 });

/** Scores per `<ranker> <questions>`; a ranker is an ALPHA (a number) or the default (undefined). */
async function evaluate(lang: typeof EN, seeds: number[], rankers: Record<string, number | undefined>): Promise<Record<string, Scores>> {
  const totals: Record<string, Scores> = {};
  for (const seed of seeds) {
    const { turns, questions } = conversation(lang, seed, TURNS);
    const store = await createStore();
    const enc = run(store, turns.map((text) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text } } })), { now: NOW });
    if (!enc.ok) throw new Error(JSON.stringify(enc.diagnostics[0]));
    const idOf = enc.results.map((x) => x.ids[0]);
    for (const q of questions) {
      const want = new Set(q.evidence.map((i) => idOf[i]));
      for (const [ranker, alpha] of Object.entries(rankers)) {
        const search = { intent: { query: q.text }, limit: 10, ...(alpha === undefined ? {} : { overrides: { alpha } }) };
        const res = run(store, [{ stage: 'RET', op: 'Retrieve', target: { search }, args: { include: ['id'] } }], { now: NOW });
        if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
        const got = res.results[0].ids;
        const first = got.findIndex((id) => want.has(id));
        for (const subset of ['all', q.paraphrase ? 'paraphrase' : 'overlap']) {
          const t = (totals[`${ranker} ${subset}`] ??= zero());
          t.n++;
          t.r5 += got.slice(0, 5).filter((id) => want.has(id)).length / want.size;
          t.r10 += got.slice(0, 10).filter((id) => want.has(id)).length / want.size;
          t.mrr += first < 0 ? 0 : 1 / (first + 1);
        }
      }
    }
    store.close();
  }
  return totals;
}

const pct = (x: number, n: number) => ((100 * x) / n).toFixed(1).padStart(6);
const langs = [['English', EN], ['Chinese', ZH]] as const;
const seedsOf = (name: 'English' | 'Chinese') => Array.from({ length: CONVERSATIONS }, (_, i) => SEEDS[SPLIT][name] + i);

if (process.argv.includes('--locomo')) {
  const file = process.argv[process.argv.indexOf('--locomo') + 1];
  if (!file || file.startsWith('--')) throw new Error('--locomo needs a file');
  const alpha = process.argv.includes('--alpha') ? arg('alpha', NaN) : undefined;
  const conversations = readLocomo(file);
  const db = process.argv.includes('--db') ? process.argv[process.argv.indexOf('--db') + 1] : undefined;
  const openDb = db === undefined ? undefined : async (n: number) => {
    const opened = async (name: string) => {
      const o = await openStoreUrl(name);
      if (!o.ok) throw new Error(o.diagnostics.map((d) => d.message).join('; '));
      return o.store;
    };
    if (!/^postgres(ql)?:\/\//i.test(db)) {
      const store = await opened(db);
      return { store, close: () => store.close() };
    }
    const schema = `t2m_eval_locomo_${n}`;
    const admin = await opened(db);
    await admin.driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    await admin.close();
    const store = await opened(`${db}${db.includes('?') ? '&' : '?'}schema=${schema}`);
    return { store, close: async () => { await store.driver.exec(`DROP SCHEMA ${schema} CASCADE`); await store.close(); } };
  };
  const total = zeroScores();
  const line = (name: string, t: typeof total) =>
    console.log(`${name.padEnd(14)} ${pct(t.r5, t.n)} ${pct(t.r10, t.n)} ${(t.ms / Math.max(1, t.n)).toFixed(2).padStart(8)} ${String(t.n).padStart(9)}`);
  console.log(`LoCoMo evidence recall, ${file}: ${alpha === undefined ? 'the engine\'s defaults' : `ALPHA ${alpha}`}${db === undefined ? '' : `, --db ${db}`}`);
  console.log(`${'conversation'.padEnd(14)} ${'R@5'.padStart(6)} ${'R@10'.padStart(6)} ${'ms/query'.padStart(8)} ${'questions'.padStart(9)}`);
  for (const [i, c] of conversations.entries()) {
    process.stderr.write(`${c.id} (${i + 1}/${conversations.length}): ${c.turns.length} turns, ${c.questions.length} questions\n`);
    const s = await scoreConversation(c, alpha === undefined ? undefined : { alpha }, openDb && (() => openDb(i)));
    line(c.id, s);
    for (const k of ['n', 'r5', 'r10', 'ms'] as const) total[k] += s[k];
  }
  line('all', total);
  if (flag('fit')) fit(conversations, total);
  process.exit(0);
}

/**
 * Context weights fitted on all conversations but one (the grid's best mean of R@5 and R@10 over
 * their questions; ties to the earlier, smaller weights) and scored on the one held back.
 */
function fit(conversations: ReturnType<typeof readLocomo>, engine: ReturnType<typeof zeroScores>): void {
  const cands = conversations.map((c) => candidatesOf(c));
  const table = CONTEXT_GRID.map((w) => ({ w, per: cands.map((c) => recallWith(c, w)) }));
  const mean = (per: ReturnType<typeof recallWith>[], which: number[]) => {
    const n = which.reduce((a, i) => a + per[i].n, 0);
    return which.reduce((a, i) => a + per[i].r5 + per[i].r10, 0) / (2 * n);
  };
  const best = (which: number[]) => table.reduce((b, t) => (mean(t.per, which) > mean(b.per, which) + 1e-12 ? t : b));
  const all = conversations.map((_, i) => i);
  const own = recallWith(cands.flat(), CONTEXT_WEIGHTS);
  console.log(`\nneighbour context (weights one and two places away; the engine's: ${CONTEXT_WEIGHTS.join(', ')})`);
  console.log(`this script's copy at the engine's weights: ${pct(own.r5, own.n)} ${pct(own.r10, own.n)} (the engine: ${pct(engine.r5, engine.n)} ${pct(engine.r10, engine.n)})`);
  console.log(`${'held back'.padEnd(14)} ${'fitted'.padEnd(10)} ${'R@5'.padStart(6)} ${'R@10'.padStart(6)}   no context R@5 / R@10`);
  const held = { r5: 0, r10: 0, n: 0 };
  for (const h of all) {
    const t = best(all.filter((i) => i !== h));
    const none = recallWith(cands[h], []);
    console.log(`${conversations[h].id.padEnd(14)} ${t.w.join(', ').padEnd(10)} ${pct(t.per[h].r5, t.per[h].n)} ${pct(t.per[h].r10, t.per[h].n)}   ${pct(none.r5, none.n)} ${pct(none.r10, none.n)}`);
    for (const k of ['r5', 'r10', 'n'] as const) held[k] += t.per[h][k];
  }
  console.log(`${'all held back'.padEnd(14)} ${''.padEnd(10)} ${pct(held.r5, held.n)} ${pct(held.r10, held.n)}`);
  const b = best(all);
  const r = recallWith(cands.flat(), b.w);
  console.log(`fitted on all: ${b.w.join(', ')} (${pct(r.r5, r.n).trim()} / ${pct(r.r10, r.n).trim()})`);
}

console.log(`retrieval eval, ${SPLIT} split: ${CONVERSATIONS} conversations × ${TURNS} turns per language, RETRIEVE … LIMIT 10, default ALPHA ${DEFAULT_ALPHA}`);
if (flag('sweep')) {
  // Fused scores for each ALPHA. The rule, fixed before looking: the highest mean R@5 over both
  // languages; ties (within 0.05 points) by the highest mean MRR; then the one nearest 0.5.
  const alphas = Array.from({ length: 11 }, (_, i) => i / 10);
  const rankers = Object.fromEntries(alphas.map((a) => [`α${a.toFixed(1)}`, a]));
  const per = await Promise.all(langs.map(([name, lang]) => evaluate(lang, seedsOf(name), rankers)));
  console.log(`${'ALPHA'.padEnd(6)} ${langs.map(([n]) => `${n} R@5 / R@10 / MRR`.padEnd(30)).join(' ')}`);
  const rows = alphas.map((a) => {
    const key = `α${a.toFixed(1)} all`;
    const s = per.map((p) => p[key]);
    console.log(`${a.toFixed(1).padEnd(6)} ${s.map((t) => `${pct(t.r5, t.n)} ${pct(t.r10, t.n)} ${(t.mrr / t.n).toFixed(3).padStart(6)}`.padEnd(30)).join(' ')}`);
    return { a, r5: s.reduce((x, t) => x + (100 * t.r5) / t.n, 0) / s.length, mrr: s.reduce((x, t) => x + t.mrr / t.n, 0) / s.length };
  });
  rows.sort((x, y) => (Math.abs(x.r5 - y.r5) > 0.05 ? y.r5 - x.r5 : Math.abs(x.mrr - y.mrr) > 1e-9 ? y.mrr - x.mrr : Math.abs(x.a - 0.5) - Math.abs(y.a - 0.5)));
  console.log(`chosen by the rule on the ${SPLIT} split: ALPHA ${rows[0].a.toFixed(1)} (mean R@5 ${rows[0].r5.toFixed(1)}, mean MRR ${rows[0].mrr.toFixed(3)}); the engine's default is ${DEFAULT_ALPHA}`);
} else {
  console.log(`${'set'.padEnd(8)} ${'ranker / questions'.padEnd(18)} ${'R@5'.padStart(6)} ${'R@10'.padStart(6)} ${'MRR'.padStart(6)} ${'questions'.padStart(9)}`);
  for (const [name, lang] of langs) {
    const totals = await evaluate(lang, seedsOf(name), { bm25: 0, vector: 1, fused: undefined });
    for (const [key, t] of Object.entries(totals).sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`${name.padEnd(8)} ${key.padEnd(18)} ${pct(t.r5, t.n)} ${pct(t.r10, t.n)} ${(t.mrr / t.n).toFixed(3).padStart(6)} ${String(t.n).padStart(9)}`);
    }
  }
}

if (!flag('no-bench')) {
  const { samples, errors } = parseSamples(readFileSync(BENCH, 'utf8'));
  if (errors.length) throw new Error(errors.join('\n'));
  const report = await runBenchmark(samples);
  console.log(`shared benchmark (${BENCH}): ranking checks ${report.ranking.passed} / ${report.ranking.total}, assertions ${report.assertions.passed} / ${report.assertions.total}`);
}
