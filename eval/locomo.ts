/**
 * Evidence recall on a LoCoMo-format file (Maharana et al., ACL 2024; the data is not part of the
 * project: give its path). The protocol of the retrieval goal (spec/retrieval.md): one store per
 * conversation, each turn stored as one memory, `ENCODE "<speaker>: <text>"` (nothing else, in
 * the conversation's order), each question with evidence asked as
 * `RETRIEVE WHERE search "<question>" LIMIT 10` with the engine's defaults; evidence recall@k is
 * the share of a question's evidence turns among the first k results, averaged over questions.
 */
import { readFileSync } from 'node:fs';
import { run } from '../src/engine/index.js';
import { createStore } from '../src/dialect/sqlite/store.js';

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
export async function scoreConversation(c: LocomoConversation, overrides?: Record<string, unknown>): Promise<LocomoScores & { perQuestion: { r5: number; r10: number }[] }> {
  const store = await createStore();
  try {
    const enc = run(store, c.turns.map((t) => ({ stage: 'ENC', op: 'Encode', args: { payload: { text: t.text } } })), { now: NOW });
    if (!enc.ok) throw new Error(JSON.stringify(enc.diagnostics[0]));
    const dia = new Map<number, string>(enc.results.map((r, i) => [r.ids[0], c.turns[i].dia]));
    const out = { ...zeroScores(), perQuestion: [] as { r5: number; r10: number }[] };
    for (const q of c.questions) {
      const search = { intent: { query: q.text }, limit: 10, ...(overrides ? { overrides } : {}) };
      const t0 = performance.now();
      const res = run(store, [{ stage: 'RET', op: 'Retrieve', target: { search } }], { now: NOW });
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
    store.close();
  }
}

export const readLocomo = (file: string): LocomoConversation[] => parseLocomo(readFileSync(file, 'utf8'));
