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

/** The rows of a read without those whose lock policy explicitly denies it (warned). */
export function withoutHidden(x: Execution, op: RetrieveOp | SummarizeOp, rows: Row[]): Row[] {
  // (A loop: most reads meet no lock, and then allocate nothing.)
  let hidden: Row[] | undefined;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (lockActive(r, op.now) && lockDenies(r, op.kind, op.actor)) (hidden ??= []).push(r);
  }
  if (!hidden) return rows;
  x.warn('lock-hides-record', `${op.kind}: the lock policy of ${hidden.map((r) => `memory #${r.id}`).join(', ')} denies ${op.kind}; left out`);
  const left = hidden;
  return rows.filter((r) => !left.includes(r));
}

/** A Retrieve's result: at most `maxRows` of its rows (warned when cut). */
export function retrieve(
  x: Execution, op: RetrieveOp, rows: Row[], scores: Record<number, number> | undefined, explain: Record<number, ScoreExplanation> | undefined, maxRows: number,
): ExecuteResult {
  if (rows.length > maxRows) {
    x.warn('truncated', `Retrieve matched more than ${maxRows} records; the first ${maxRows} are returned (RunOptions.limits.maxRows, t2m run --max-rows; or narrow it with LIMIT)`, 'target');
    rows = rows.slice(0, maxRows);
  }
  return { ok: true, result: x.readResult(rows, op.include, scores, explain) };
}

/** RETRIEVE … LEVEL: the experience stage's selection of the candidates, and its report. */
export function* retrieveExperience(x: Execution, op: RetrieveOp, rows: Row[], scores: Record<number, number>, selector: Selector | undefined): Io<ExecuteResult> {
  const selected = yield* selectExperience(x, op, rows, scores, selector);
  if (!selected) return { ok: false, diagnostics: [x.refusal!] };
  return { ok: true, result: x.result(selected.rows.map((r) => r.id), { rows: selected.rows.map((r) => project(r, op.include)), scores, experience: selected.report }) };
}
