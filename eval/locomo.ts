/**
 * Evidence recall on a LoCoMo-format file (Maharana et al., ACL 2024; the data is not part of the
 * project: give its path). The protocol of the retrieval goal (spec/retrieval.md): one store per
 * conversation, each turn stored as one memory, `ENCODE "<speaker>: <text>"` (nothing else, in
 * the conversation's order), each question with evidence asked as
 * `RETRIEVE WHERE search "<question>" LIMIT 10` with the engine's defaults; evidence recall@k is
 * the share of a question's evidence turns among the first k results, averaged over questions.
 */
import { readFileSync } from 'node:fs';
import { run, type Store } from '../src/engine/index.js';
import { createStore } from '../src/dialect/sqlite/store.js';
import { DEFAULT_ALPHA } from '../src/lower/defaults.js';
import { KeywordIndex } from '../src/retrieve/keywords.js';
import { context, DEFAULT_SEARCH_K, fuse, MIN_CANDIDATES } from '../src/retrieve/search.js';
import { VectorIndex, type Scored } from '../src/retrieve/vectors.js';
import { NgramEmbedder, searchTextOf, tokens } from '../src/text/text.js';

const NOW = '2026-01-01T00:00:00Z';

export interface LocomoTurn { readonly dia: string; readonly text: string }
export interface LocomoQuestion { readonly text: string; readonly evidence: readonly string[]; readonly category: number }
export interface LocomoConversation { readonly id: string; readonly turns: readonly LocomoTurn[]; readonly questions: readonly LocomoQuestion[] }

/** The conversations of a LoCoMo-format JSON text: turns in session order, questions with their evidence turn ids. */
export function parseLocomo(json: string): LocomoConversation[] {
  const data = JSON.parse(json) as unknown;
  if (!Array.isArray(data)) throw new Error('a LoCoMo file is a JSON list of conversations');
  return data.map((c: Record<string, unknown>, i) => {
    const conv = (c.conversation ?? {}) as Record<string, unknown>;
    const sessions = Object.keys(conv)
      .map((k) => /^session_(\d+)$/.exec(k))
      .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conv[m[0]]))
      .sort((a, b) => Number(a[1]) - Number(b[1]));
    const turns: LocomoTurn[] = [];
    for (const m of sessions) {
      for (const t of conv[m[0]] as Record<string, unknown>[]) turns.push({ dia: String(t.dia_id), text: `${String(t.speaker)}: ${String(t.text ?? '')}` });
    }
    const known = new Set(turns.map((t) => t.dia));
    const questions: LocomoQuestion[] = [];
    for (const q of (c.qa ?? []) as Record<string, unknown>[]) {
      // A few evidence entries hold two ids in one string ("D8:6; D9:17").
      const evidence = [...new Set(((q.evidence ?? []) as unknown[]).flatMap((e) => String(e).split(/[;,\s]+/)).filter((e) => known.has(e)))];
      if (evidence.length && typeof q.question === 'string') questions.push({ text: q.question, evidence, category: Number(q.category) });
    }
    return { id: String(c.sample_id ?? `conversation ${i + 1}`), turns, questions };
  });
}

export interface LocomoScores {
  /** Questions scored, and the sums of their recall@5 / @10 (divide by n). */
  n: number;
  r5: number;
  r10: number;
  /** Milliseconds spent in the searches (through `run`), summed. */
  ms: number;
}

export const zeroScores = (): LocomoScores => ({ n: 0, r5: 0, r10: 0, ms: 0 });

/** One question's ids of the first ten results. */
export type Searcher = (question: string) => number[];

/**
 * Evidence recall of one conversation: a fresh store, every turn encoded in order, every question
 * searched (`search` overrides: e.g. `{ alpha: 0 }`; none means the engine's defaults).
 */
export async function scoreConversation(c: LocomoConversation, overrides?: Record<string, unknown>, open?: () => Promise<{ store: Store; close(): Promise<void> | void }>): Promise<LocomoScores & { perQuestion: { r5: number; r10: number }[] }> {
  // `open`: another kind of store (eval/retrieval.ts --db); by default an in-memory SQLite store.
  const opened = open ? await open() : await createStore().then((s) => ({ store: s as Store, close: () => s.close() }));
  const store = opened.store;
  try {
    const enc = await run(store, c.turns.map((t) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t.text } } })), { now: NOW });
    if (!enc.ok) throw new Error(JSON.stringify(enc.diagnostics[0]));
    const dia = new Map<number, string>(enc.results.map((r, i) => [r.ids[0], c.turns[i].dia]));
    const out = { ...zeroScores(), perQuestion: [] as { r5: number; r10: number }[] };
    for (const q of c.questions) {
      const search = { intent: { query: q.text }, limit: 10, ...(overrides ? { overrides } : {}) };
      const t0 = performance.now();
      const res = await run(store, [{ stage: 'RET', op: 'Retrieve', target: { search } }], { now: NOW });
      out.ms += performance.now() - t0;
      if (!res.ok) throw new Error(JSON.stringify(res.diagnostics[0]));
      const got = res.results[0].ids.map((id) => dia.get(id));
      const want = new Set(q.evidence);
      const r5 = got.slice(0, 5).filter((d) => d !== undefined && want.has(d)).length / want.size;
      const r10 = got.slice(0, 10).filter((d) => d !== undefined && want.has(d)).length / want.size;
      out.perQuestion.push({ r5, r10 });
      out.n++;
      out.r5 += r5;
      out.r10 += r10;
    }
    return out;
  } finally {
    await opened.close();
  }
}

export const readLocomo = (file: string): LocomoConversation[] => parseLocomo(readFileSync(file, 'utf8'));

/**
 * The context weights fitted on part of a file and checked on the rest (`--fit`). The candidates
 * are the engine's own — its keyword index (`KeywordIndex.search`) and vector index
 * (`VectorIndex.nearest`) over the same search tokens and embeddings, `max(50, 4 × 10)` each —
 * and are fused and given context by the engine's `fuse` and `context` (src/retrieve/search.ts)
 * with other weights; every record has the default weight, so the prior is the same for all.
 * At the engine's own weights it gives the engine's figures (the script prints both).
 */
export interface Candidates { keyword: Scored[]; vector: Scored[]; index: KeywordIndex; evidence: ReadonlySet<number> }

export function candidatesOf(c: LocomoConversation, alpha = DEFAULT_ALPHA): Candidates[] {
  const embedder = new NgramEmbedder();
  const index = new KeywordIndex();
  const vectors = new VectorIndex(embedder.model, embedder.dimensions);
  const idOf = new Map<string, number>();
  c.turns.forEach((t, i) => {
    idOf.set(t.dia, i + 1);
    index.set(i + 1, searchTextOf({ text: t.text }));
    vectors.set(i + 1, embedder.embed(t.text));
  });
  const n = Math.max(MIN_CANDIDATES, 4 * DEFAULT_SEARCH_K);
  return c.questions.map((q) => {
    const terms = [...new Set(tokens(q.text))];
    const v = embedder.embed(q.text);
    return {
      keyword: alpha < 1 && terms.length ? index.search(terms, n) : [],
      vector: alpha > 0 && v.some((x) => x !== 0) ? vectors.nearest(v, n) : [],
      index,
      evidence: new Set(q.evidence.map((d) => idOf.get(d)!)),
    };
  });
}

/** Recall@5 and @10 summed over the questions, ranked by fused + context with `weights`. */
export function recallWith(cands: readonly Candidates[], weights: readonly number[], alpha = DEFAULT_ALPHA): { r5: number; r10: number; n: number } {
  let r5 = 0, r10 = 0;
  for (const c of cands) {
    const parts = fuse(c.keyword, c.vector, alpha);
    const lent = alpha > 0 && alpha < 1 ? context(parts, (id, steps) => c.index.neighbour(id, steps), weights) : new Map<number, number>();
    const score = new Map<number, number>();
    for (const [id, e] of parts) score.set(id, e.fused + (lent.get(id) ?? 0));
    for (const [id, x] of lent) if (!parts.has(id)) score.set(id, x);
    const top = [...score].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 10).map(([id]) => id);
    r5 += top.slice(0, 5).filter((id) => c.evidence.has(id)).length / c.evidence.size;
    r10 += top.filter((id) => c.evidence.has(id)).length / c.evidence.size;
  }
  return { r5, r10, n: cands.length };
}

/** The weights tried by `--fit`: one place away 0 … 0.8, two places away 0 … 0.3. */
export const CONTEXT_GRID: readonly (readonly number[])[] = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8].flatMap((a) => [0, 0.05, 0.1, 0.15, 0.2, 0.3].map((b) => [a, b]));
