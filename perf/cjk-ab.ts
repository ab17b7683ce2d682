/**
 * A/B of two checkouts of the engine in one process on Chinese (or English) text: the retrieval
 * eval's conversations (eval/conversations.ts) encoded by each side in alternating rounds (ABBA),
 * then keyword searches (`ALPHA 0`, `LIMIT 10`) of the eval's questions on both, alternating.
 * Measures what a change of tokenizer costs (spec/retrieval.md#word-segmentation-or-character-n-grams-chinese-japanese):
 *   npx tsx perf/cjk-ab.ts <dir A> <dir B> [zh|en] [rounds] [conversations for the search]
 * Prints per side: median Encode time (records/s), the B/A throughput per round, and search p50 / p95.
 */
import { conversation, EN, ZH } from '../eval/conversations.js';

const [dirA, dirB] = [process.argv[2], process.argv[3]];
const english = process.argv[4] === 'en';
const ROUNDS = Number(process.argv[5] ?? 6);
const SEARCH_CONVERSATIONS = Number(process.argv[6] ?? 16);
const NOW = '2026-01-01T00:00:00Z';
type Engine = typeof import('../src/index.js');
type Store = Awaited<ReturnType<Engine['createStore']>>;
const A: Engine = await import(`${dirA}/src/index.ts`);
const B: Engine = await import(`${dirB}/src/index.ts`);
const lang = english ? EN : ZH;
const seed = english ? 1000 : 2000;

async function encodeAll(E: Engine, turns: readonly string[]): Promise<{ store: Store; ms: number }> {
  const store = await E.createStore();
  const t0 = performance.now();
  for (let s = 0; s < turns.length; s += 300) {
    const r = E.run(store, turns.slice(s, s + 300).map((text) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text } } })), { now: NOW });
    if (!r.ok) throw new Error('encode failed');
  }
  return { store, ms: performance.now() - t0 };
}

const turns = [0, 1, 2, 3].flatMap((i) => conversation(lang, seed + i, 300).turns);
const a: number[] = [], b: number[] = [];
const once = async (E: Engine, into: number[]) => {
  const { store, ms } = await encodeAll(E, turns);
  store.close();
  into.push(ms);
};
await once(A, []);
await once(B, []);
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2 === 0) { await once(A, a); await once(B, b); } else { await once(B, b); await once(A, a); }
}
const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
const pc = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))];
console.log(`${turns.length} ${english ? 'English' : 'Chinese'} Encodes (scripts of 300), ${ROUNDS} ABBA rounds`);
console.log(`A ${dirA}: median ${med(a).toFixed(0)} ms (${((turns.length / med(a)) * 1000).toFixed(0)} records/s)`);
console.log(`B ${dirB}: median ${med(b).toFixed(0)} ms (${((turns.length / med(b)) * 1000).toFixed(0)} records/s)`);
const ratios = a.map((x, i) => x / b[i]);
console.log(`encode throughput B/A per round: ${ratios.map((r) => r.toFixed(2)).join(' ')}; median ${med(ratios).toFixed(2)}`);

const convs = Array.from({ length: SEARCH_CONVERSATIONS }, (_, i) => conversation(lang, seed + i, 300));
const all = convs.flatMap((c) => c.turns);
const questions = convs.flatMap((c) => c.questions.map((q) => q.text));
const sa = (await encodeAll(A, all)).store, sb = (await encodeAll(B, all)).store;
const search = (E: Engine, store: Store, text: string) => {
  const t0 = performance.now();
  const r = E.run(store, [{ stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: text }, limit: 10, overrides: { alpha: 0 } } }, args: { include: ['id'] } }], { now: NOW });
  if (!r.ok) throw new Error('search failed');
  return performance.now() - t0;
};
for (const q of questions.slice(0, 20)) { search(A, sa, q); search(B, sb, q); }
const ta: number[] = [], tb: number[] = [];
questions.forEach((q, i) => {
  if (i % 2) { tb.push(search(B, sb, q)); ta.push(search(A, sa, q)); } else { ta.push(search(A, sa, q)); tb.push(search(B, sb, q)); }
});
console.log(`${all.length} turns, ${questions.length} keyword searches (ALPHA 0, LIMIT 10), alternating`);
console.log(`A: p50 ${pc(ta, 0.5).toFixed(1)} ms, p95 ${pc(ta, 0.95).toFixed(1)} ms; B: p50 ${pc(tb, 0.5).toFixed(1)} ms, p95 ${pc(tb, 0.95).toFixed(1)} ms`);
