/**
 * Summarize: the store's summarizer over the target records' texts, with their scores and
 * provenance.
 */
import type { SummarizeOp } from '../../lower/operation.js';
import type { ScoreExplanation } from '../../retrieve/search.js';
import type { Execution } from '../execution.js';
import { provenanceOf, type ExecuteResult, type Row } from '../rows.js';
import { ofRows, withinRows } from './retrieve.js';

/** The summary of at most `maxRows` of the target records (the caller's row limit, as for a Retrieve; warned when cut). */
export function summarize(x: Execution, op: SummarizeOp, rows: Row[], scores: Record<number, number> | undefined, explain: Record<number, ScoreExplanation> | undefined, maxRows = Infinity): ExecuteResult {
  const all = rows.length;
  rows = withinRows(x, op, rows, maxRows);
  scores = ofRows(scores, rows, rows.length < all);
  explain = ofRows(explain, rows, rows.length < all);
  const texts = rows.filter((r) => typeof r.text === 'string').map((r) => ({ id: r.id, text: r.text as string }));
  const summary = x.store.summarizer.summarize(texts, { focus: op.focus, maxTokens: op.maxTokens });
  return { ok: true, result: x.result(rows.map((r) => r.id), { summary, scores, explain, provenance: provenanceOf(rows) }) };
}
