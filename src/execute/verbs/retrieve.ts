/**
 * Retrieve: the target records the reader may see, projected to `include`, with their scores,
 * explanations and provenance; RETRIEVE … LEVEL hands its candidates to the experience stage
 * (src/experience), which keeps at most `pick` of them.
 */
import { selectExperience, type Selector } from '../../experience/experience.js';
import type { RetrieveOp, SummarizeOp } from '../../lower/operation.js';
import type { ScoreExplanation } from '../../retrieve/search.js';
import type { Execution } from '../execution.js';
import { lockActive, lockDenies } from '../governance.js';
import type { Io } from '../../store/io.js';
import { project, type ExecuteResult, type Row } from '../rows.js';
import { inTransactionTime } from '../facts.js';

/**
 * Does a lock in force on `r` hide it from `op` (a read) and its actor? A Summarize reads the
 * records' content, so a lock denying Retrieve hides a record from it too (as does one denying Summarize).
 */
const hides = (op: RetrieveOp | SummarizeOp, r: Row) =>
  lockActive(r, op.now) && (lockDenies(r, 'Retrieve', op.actor) || (op.kind !== 'Retrieve' && lockDenies(r, op.kind, op.actor)));

/** The rows of a read without those whose lock policy explicitly denies it (warned). */
export function withoutHidden(x: Execution, op: RetrieveOp | SummarizeOp, rows: Row[]): Row[] {
  // (A loop: most reads meet no lock, and then allocate nothing.)
  let hidden: Row[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (hides(op, r)) (hidden ??= []).push(r);
  }
  if (!hidden) return rows;
  x.warn('lock-hides-record', `${op.kind}: the lock policy of ${hidden.map((r) => `memory #${r.id}`).join(', ')} denies ${op.kind}; left out`);
  const left = hidden;
  return rows.filter((r) => !left.includes(r));
}

/** The first `maxRows` of a read's rows (warned when cut): every read path returns at most the caller's row limit. */
export function withinRows(x: Execution, op: RetrieveOp | SummarizeOp, rows: Row[], maxRows: number): Row[] {
  if (rows.length <= maxRows) return rows;
  x.warn('truncated', `${op.kind} matched more than ${maxRows} records; the first ${maxRows} are ${op.kind === 'Summarize' ? 'summarized' : 'returned'} (RunOptions.limits.maxRows, t2m run --max-rows; or narrow it with LIMIT)`, 'target');
  return rows.slice(0, maxRows);
}

/** The entries of `byId` (scores, explanations) for the rows kept, when rows were cut. */
export function ofRows<T>(byId: Record<number, T> | undefined, rows: readonly Row[], cut: boolean): Record<number, T> | undefined {
  if (!byId || !cut) return byId;
  const out: Record<number, T> = {};
  for (const r of rows) if (r.id in byId) out[r.id] = byId[r.id];
  return out;
}

/** A Retrieve's result: at most `maxRows` of its rows (warned when cut); in transaction time when it reads at one or shows it. */
export function* retrieve(
  x: Execution, op: RetrieveOp, rows: Row[], scores: Record<number, number> | undefined, explain: Record<number, ScoreExplanation> | undefined, maxRows: number,
): Io<ExecuteResult> {
  let shown = withinRows(x, op, rows, maxRows);
  const believed = op.include.includes('believed_from') || op.include.includes('believed_to');
  if (op.selection.knownAt !== undefined || believed) shown = yield* inTransactionTime(x, shown, op.selection.knownAt, believed);
  const cut = shown.length < rows.length;
  return { ok: true, result: x.readResult(shown, op.include, ofRows(scores, shown, cut), ofRows(explain, shown, cut)) };
}

/** RETRIEVE … LEVEL: the experience stage's selection of the candidates (at most `maxRows` rows, kept ones first, then their episodes), and its report. */
export function* retrieveExperience(x: Execution, op: RetrieveOp, rows: Row[], scores: Record<number, number>, selector: Selector | undefined, maxRows = Infinity): Io<ExecuteResult> {
  const selected = yield* selectExperience(x, op, rows, scores, selector, (r) => hides(op, r));
  if (!selected) return { ok: false, diagnostics: [x.refusal!] };
  const shown = withinRows(x, op, selected.rows, maxRows);
  let report = selected.report;
  if (shown.length < selected.rows.length && report.expanded) {
    // An episode cut by the row limit is not reported as expanded.
    const kept = new Set(shown.map((r) => r.id));
    report = { ...report, expanded: Object.fromEntries(Object.entries(report.expanded).filter(([, episode]) => kept.has(episode))) };
  }
  // The statement's ids (what LET binds, and so what a later REWARD credits) are the kept records
  // only: an expanded episode is shown, not used, and a turn's reward does not credit it.
  const keptIds = new Set(report.selected);
  return { ok: true, result: x.result(shown.filter((r) => keptIds.has(r.id)).map((r) => r.id), { rows: shown.map((r) => project(r, op.include)), scores: ofRows(scores, shown, shown.length < selected.rows.length), experience: report }) };
}
